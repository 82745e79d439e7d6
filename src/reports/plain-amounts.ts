import type { Decimal } from 'decimal.js';
import { subtract, sumAmounts, toFixed2, type Money } from '../domain/money.js';
import { monthsIn, type MonthRange } from '../domain/months.js';

/**
 * The report and insight builders format thousands of amounts a report,
 * nearly all of them SQL's DECIMAL text, already in the API's form
 * ('-12.30'). Such a string is returned as it is, and a sum of such strings
 * is taken in whole pennies (BigInt); anything else goes through decimal.js
 * as before. Either way the result is the string decimal.js gives: half-up
 * to 2 places, no leading zeros, and no negative zero.
 */

const PLAIN = /^-?(?:0|[1-9]\d*)\.\d{2}$/;

const isPlain = (value: Decimal.Value): value is string => typeof value === 'string' && PLAIN.test(value) && value !== '-0.00';

/** toFixed2 of money.ts. */
export function fixed2(value: Decimal.Value): string {
  return isPlain(value) ? value : toFixed2(value);
}

/** money of money.ts. */
export function moneyOf(value: Decimal.Value, currency: string): Money {
  return { value: fixed2(value), currency };
}

function fromPennies(pennies: bigint): string {
  const digits = (pennies < 0n ? -pennies : pennies).toString().padStart(3, '0');
  return `${pennies < 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** sumAmounts of money.ts. */
export function sumFixed2(values: readonly Decimal.Value[]): string {
  let pennies = 0n;
  for (const v of values) {
    if (typeof v !== 'string' || !PLAIN.test(v)) return sumAmounts(values);
    pennies += BigInt(v.replace('.', ''));
  }
  return fromPennies(pennies);
}

// A nightly run asks for the same three ranges' months tens of thousands of times.
const monthLists = new Map<string, readonly string[]>();

/** monthsIn of months.ts, kept per range; the list is shared, so never change it. */
export function monthsOf(range: MonthRange): readonly string[] {
  const key = `${range.from}|${range.to}`;
  let months = monthLists.get(key);
  if (!months) {
    if (monthLists.size >= 1000) monthLists.clear();
    monthLists.set(key, (months = monthsIn(range)));
  }
  return months;
}

/** subtract of money.ts. */
export function difference(a: string, b: string): string {
  if (!PLAIN.test(a) || !PLAIN.test(b)) return subtract(a, b);
  return fromPennies(BigInt(a.replace('.', '')) - BigInt(b.replace('.', '')));
}
