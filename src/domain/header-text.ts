/**
 * What an HTTP header cannot carry of an id as it is: a control character
 * (the tab aside; C1's too, from U+0080, such as the next-line U+0085,
 * which a log viewer may break a line at), or a space or tab at either
 * end, which the header's parser trims. A client or customer id is named in a header
 * (X-Client-ID, X-Customer-ID), so it may hold neither. Apart from the zod
 * schemas, so that the fast path's worker script can use it without them.
 */
// Control characters are what it looks for.
// eslint-disable-next-line no-control-regex
export const HEADER_UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]|^[ \t]|[ \t]$/;
export const HEADER_UNSAFE_MESSAGE = 'must not begin or end with a space or tab, nor hold a control character (an HTTP header could not name it)';
/** A customer's secret is presented as X-Customer-Secret, so it may hold neither either. */
export const SECRET_HEADER_UNSAFE_MESSAGE = 'must not begin or end with a space or tab, nor hold a control character (X-Customer-Secret could not carry it)';
/** The longest customer secret. */
export const SECRET_MAX_CHARS = 500;

/** Whether the bytes from..to (an ASCII id as a line holds it) are what a header can carry: see HEADER_UNSAFE. */
export function headerSafeBytes(b: Uint8Array, from: number, to: number): boolean {
  if (to > from && (b[from] === 0x20 || b[from] === 0x09 || b[to - 1] === 0x20 || b[to - 1] === 0x09)) return false;
  for (let i = from; i < to; i++) {
    const c = b[i] as number;
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return false;
  }
  return true;
}
