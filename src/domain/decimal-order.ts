import { affordError } from './errors.js';

/**
 * The exact order of decimal text ("-12.30", "7", "0.005"), read from the
 * digits: no float, no decimal object and no BigInt, so that sorting the
 * amounts of a report costs little. -0 equals 0, and trailing zeros after
 * the point change nothing ("1.50" equals "1.5").
 */

const DECIMAL_TEXT = /^(-?)0*(\d*?)(?:\.(\d*?)0*)?$/;
/** SQL's DECIMAL text: 2 places, no leading zeros. Nearly every amount a report orders is in this form. */
const SQL_AMOUNT = /^-?(?:0|[1-9]\d*)\.\d{2}$/;

interface Digits {
  negative: boolean;
  /** The integer digits without leading zeros ('' for none). */
  whole: string;
  /** The digits after the point without trailing zeros ('' for none). */
  fraction: string;
}

function digitsOf(value: string): Digits {
  const match = /^-?\d+(?:\.\d+)?$/.test(value) ? DECIMAL_TEXT.exec(value) : null;
  if (!match) throw affordError('INVALID_ARGUMENT', `not a decimal number: ${value}`);
  const [, sign, whole = '', fraction = ''] = match;
  return { negative: sign === '-' && (whole !== '' || fraction !== ''), whole, fraction };
}

function compareDigits(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** Two amounts in SQL's form: the longer magnitude is the larger, and of equal lengths the digits decide. */
function compareSqlAmounts(a: string, b: string): number {
  const x = a.startsWith('-') ? a.slice(1) : a;
  const y = b.startsWith('-') ? b.slice(1) : b;
  const xNegative = x !== a && x !== '0.00';
  const yNegative = y !== b && y !== '0.00';
  if (xNegative !== yNegative) return xNegative ? -1 : 1;
  const magnitude = x.length !== y.length ? (x.length < y.length ? -1 : 1) : compareDigits(x, y);
  return xNegative && magnitude !== 0 ? -magnitude : magnitude;
}

/** -1, 0 or 1 as a is below, equal to or above b, exactly (decimal.js's comparedTo). */
export function compareDecimals(a: string, b: string): number {
  if (SQL_AMOUNT.test(a) && SQL_AMOUNT.test(b)) return compareSqlAmounts(a, b);
  const x = digitsOf(a);
  const y = digitsOf(b);
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  // Same sign: the longer integer part is the larger magnitude; then digit by digit (the fraction has no trailing zeros).
  const magnitude =
    x.whole.length !== y.whole.length ? (x.whole.length < y.whole.length ? -1 : 1) : compareDigits(x.whole, y.whole) || compareDigits(x.fraction, y.fraction);
  return x.negative && magnitude !== 0 ? -magnitude : magnitude;
}

/** Whether decimal text is below zero ("-0.00" is not). */
export function isBelowZero(value: string): boolean {
  if (SQL_AMOUNT.test(value)) return value.startsWith('-') && value !== '-0.00';
  return digitsOf(value).negative;
}
