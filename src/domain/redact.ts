/**
 * Redacts credentials from a raw input event before it is kept (a dead
 * letter keeps the raw text so that someone can see what was wrong with it;
 * it must not keep a secret that the store otherwise holds only as a hash).
 *
 * The event envelope carries one credential, `customer_secret`; a bad line
 * may carry others under names that look like credentials, so any key whose
 * last word is secret, password, token, api_key or authorization is redacted
 * too. The text is changed only where a value is replaced: everything else
 * stays byte for byte as received.
 */

export const REDACTED = '[redacted]';

const CREDENTIAL_KEY = /(?:^|[_-])(?:secret|password|passwd|token|api[_-]?key|apikey|authorization)$/i;

/** True for a JSON key whose value must never be kept. */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key);
}

// "key": "string" | number | true | false | null, the key matched as written (with JSON escapes left as they are).
const KEY_VALUE = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"?|-?[0-9][0-9.eE+-]*|true|false|null)/g;

function redactText(raw: string): string {
  return raw.replace(KEY_VALUE, (whole: string, key: string, colon: string) =>
    isCredentialKey(key) ? `"${key}"${colon}"${REDACTED}"` : whole,
  );
}

/** Walks parsed JSON without recursion (a hostile line may nest thousands deep); true if it replaced anything. */
function redactParsed(root: unknown): boolean {
  let changed = false;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (isCredentialKey(key)) {
        if (value !== REDACTED) {
          (node as Record<string, unknown>)[key] = REDACTED;
          changed = true;
        }
      } else if (value !== null && typeof value === 'object') {
        stack.push(value);
      }
    }
  }
  return changed;
}

/**
 * The raw text with every credential value replaced by `[redacted]`. Valid
 * JSON is checked after the textual pass, so a key written with escapes or
 * a secret given as an object is still caught (the text is then
 * re-serialised); text that is not JSON gets the textual pass alone.
 */
export function redactRawEvent(raw: string): string {
  const text = redactText(raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  try {
    return redactParsed(parsed) ? JSON.stringify(parsed) : text;
  } catch {
    // Too deep to serialise again: nothing of it is kept but its shape.
    return REDACTED;
  }
}
