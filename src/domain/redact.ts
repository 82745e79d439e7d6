/**
 * Redacts credentials from a raw input event before it is kept (a dead
 * letter keeps the raw text so that someone can see what was wrong with it;
 * it must not keep a secret that the store otherwise holds only as a hash).
 *
 * The event envelope carries one credential, `customer_secret`; a bad line
 * may carry others under names that look like credentials, so any key whose
 * last word is secret, password, passphrase, token, api_key, private_key,
 * session_key, credential(s), cookie or authorization is redacted too,
 * written apart or run together (customersecret, accesstoken), and so is
 * one named pwd or pin. The text is changed only where a value is replaced: everything else
 * stays byte for byte as received.
 */

export const REDACTED = '[redacted]';

// The words run together too (customersecret, clientsecret, accesstoken): a key that ends in one is one. pwd and pin
// are short words of other words' ends (spin), so only as a key's whole last word.
const CREDENTIAL_KEY = /(?:secret|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|privatekey|session[_-]?key|credentials?|cookie|authorization)$|(?:^|[_\s-])(?:pwd|pin)$/i;
// customerSecret, apiKey: the last word of a camelCase key, told by its capital.
const CAMEL_CREDENTIAL_KEY = /[a-z0-9](?:Secret|SECRET|Password|Passwd|Pwd|Pin|PIN|Passphrase|Token|ApiKey|Apikey|PrivateKey|Privatekey|SessionKey|Credentials?|Cookie|Authorization)$/;

/** True for a JSON key whose value must never be kept. */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key) || CAMEL_CREDENTIAL_KEY.test(key);
}

// "key": value, the key matched as written (JSON escapes left as they are); the value a string
// (perhaps unterminated), or a bare word up to the next delimiter (a number, or a secret in text that is
// not JSON). An object or array value is left to the walk over the parsed JSON.
const KEY_VALUE = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"?|[^\s,}\]{["][^\s,}\]]*)/g;

function redactText(raw: string, found: string[]): string {
  return raw.replace(KEY_VALUE, (whole: string, key: string, colon: string, value: string) => {
    if (!isCredentialKey(key)) return whole;
    found.push(value.replace(/^"|"$/g, ''));
    return `"${key}"${colon}"${REDACTED}"`;
  });
}

/** How many times a text may hold JSON written as a string (an event serialised twice) before nothing of it is kept. */
const MAX_TEXT_IN_TEXT = 4;

/**
 * A string value that names a credential as a key would (an event serialised
 * twice, an event kept in a field as text): redacted as a raw event of its
 * own; undefined when it names none.
 */
function redactInnerText(text: string, found: string[], depth: number): string | undefined {
  if (!namesCredentialLoosely(text)) return undefined;
  if (depth >= MAX_TEXT_IN_TEXT) return REDACTED;
  const inner = redactWithValues(text, depth + 1);
  found.push(...inner.values);
  return inner.text;
}

/**
 * Walks parsed JSON without recursion (a hostile line may nest thousands
 * deep), redacting in place; returns the root (replaced when it is a string
 * that held a credential) and whether anything changed.
 */
function redactParsed(root: unknown, found: string[], depth: number): { root: unknown; changed: boolean } {
  if (typeof root === 'string') {
    const kept = redactInnerText(root, found, depth);
    return kept === undefined || kept === root ? { root, changed: false } : { root: kept, changed: true };
  }
  let changed = false;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (isCredentialKey(key)) {
        if (value !== REDACTED) {
          found.push(typeof value === 'string' ? value : JSON.stringify(value));
          (node as Record<string, unknown>)[key] = REDACTED;
          changed = true;
        }
      } else if (typeof value === 'string') {
        const kept = redactInnerText(value, found, depth);
        if (kept !== undefined && kept !== value) {
          (node as Record<string, unknown>)[key] = kept;
          changed = true;
        }
      } else if (value !== null && typeof value === 'object') {
        stack.push(value);
      }
    }
  }
  return { root, changed };
}

// What the textual pass left of a key named like a credential, in text that is not JSON once its \u escapes are
// read: the key written with escapes, in single quotes, with its quotes escaped (JSON inside a string), without its
// colon, or with an array or object for its value; and a compound key (customer_secret, apiKey) followed by a value
// after a space. A single word (a description's "TOKEN PURCHASE") is not a key.
// Whatever comes before the word: a pattern for what may precede it only moved where the match starts, and made a
// long run of dashes cost the square of its length.
const LOOSE_CREDENTIAL_KEY = /(?:secret|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|privatekey|credentials?|cookie|authorization)["'\\]*\s*[:"'=[{]/i;
const LOOSE_COMPOUND_KEY = /[A-Za-z0-9][_-](?:secret|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|privatekey|credentials?|cookie|authorization)\s+[^\s]/i;
const LOOSE_CAMEL_KEY = /[a-z0-9](?:Secret|SECRET|Password|Passwd|Passphrase|Token|ApiKey|Apikey|PrivateKey|Privatekey|Credentials?|Cookie|Authorization)(?:["'\\]*\s*[:"'=[{]|\s+[^\s])/;
const REDACTED_PAIR = /"(?:[^"\\]|\\.)*"\s*:\s*"\[redacted\]"/g;
const UNICODE_ESCAPE = /\\u([0-9a-fA-F]{4})/g;

/** Whether text that is not JSON still names a credential where the textual pass could not find its value. */
function namesCredentialLoosely(text: string): boolean {
  const read = text.replace(UNICODE_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(REDACTED_PAIR, '');
  return LOOSE_CREDENTIAL_KEY.test(read) || LOOSE_COMPOUND_KEY.test(read) || LOOSE_CAMEL_KEY.test(read);
}

function redactWithValues(raw: string, depth = 0): { text: string; values: string[]; withheld: boolean } {
  const values: string[] = [];
  const text = redactText(raw, values);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON, and a credential in it that the textual pass could not take: where its value ends cannot be known
    // for sure, so nothing of the text is kept but the mark.
    if (namesCredentialLoosely(text)) return { text: REDACTED, values, withheld: true };
    return { text, values, withheld: false };
  }
  try {
    const { root, changed } = redactParsed(parsed, values, depth);
    return { text: changed ? JSON.stringify(root) : text, values, withheld: false };
  } catch {
    // Too deep to serialise again: nothing of it is kept but the mark.
    return { text: REDACTED, values, withheld: true };
  }
}

/**
 * The raw text with every credential value replaced by `[redacted]`. Valid
 * JSON is checked after the textual pass, so a key written with escapes or
 * a secret given as an object is still caught (the text is then
 * re-serialised); text that is not JSON gets the textual pass, and is
 * replaced by the mark whole when it still names a credential that pass
 * could not take (written with escapes, in single quotes, without a colon,
 * or with an array for its value).
 */
export function redactRawEvent(raw: string): string {
  return redactWithValues(raw).text;
}

// V8 quotes a piece of the text in its JSON.parse errors: `Unexpected token 'x', ..."piece"... is not valid JSON`.
const JSON_ERROR_EXCERPT = /, (?:\.\.\.)?"[\s\S]*?"(?:\.\.\.)? is not valid JSON/g;

/**
 * A dead letter as it may be kept: the raw text redacted, and its reason
 * without the credentials either (a JSON parse error quotes a piece of the
 * line, which may be a piece of a secret: such a quote goes when the line
 * holds a credential).
 */
export function redactDeadLetter(raw: string, reason: string): { raw: string; reason: string } {
  const { text, values, withheld } = redactWithValues(raw);
  if (values.length === 0 && !withheld) return { raw: text, reason };
  let kept = reason.replace(JSON_ERROR_EXCERPT, ' is not valid JSON');
  // Shorter values would garble the reason and say next to nothing.
  for (const value of values) if (value.length >= 4) kept = kept.replaceAll(value, REDACTED);
  return { raw: text, reason: kept };
}
