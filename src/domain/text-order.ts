/** Whether a UTF-16 code unit is half of a surrogate pair: part of a character above U+FFFF. */
const surrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdfff;

/**
 * Whether `a` sorts after `b` as DuckDB sorts text: by code point, which is
 * the order of their UTF-8 bytes. JavaScript's `>` compares UTF-16 code
 * units instead, and so puts a character above U+FFFF (written as two
 * surrogates, from U+D800) before one from U+E000 to U+FFFF. Where a
 * version is compared in JavaScript and in SQL alike (an event id against a
 * customer's deletion), both must agree.
 */
export function textAfter(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate against any other unit: the character above U+FFFF is the later one.
    if (surrogate(x) !== surrogate(y)) return surrogate(x);
    // Equal up to here, so two surrogates here are both the first or both the second of their pairs: in order.
    return x > y;
  }
  return a.length > b.length;
}
