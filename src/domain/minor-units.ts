import { affordError } from './errors.js';

/**
 * Money in whole minor units (pence) as BigInt: exact at any size
 * (DECIMAL(38,2) included), never a float. Parsing, printing, sums, and
 * the one rounding the reports need: an exact fraction rounded half-up to
 * the penny, as decimal.js's ROUND_HALF_UP rounds (a tie goes away from zero).
 */

const TWO_PLACES = /^-?\d+\.\d{2}$/;
const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A decimal string with at most 2 places ("-12.3", "0.05", "7") as an exact count of minor units (pence). */
export function toMinorUnits(value: string): bigint {
  // SQL's DECIMAL text ('-12.30'): the digits without the point are the pence.
  if (TWO_PLACES.test(value)) return BigInt(value.replace('.', ''));
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) throw affordError('INVALID_ARGUMENT', `not an amount with at most 2 decimals: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(whole ?? '0') * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign === '-' ? -units : units;
}

/** Minor units back to a decimal string with exactly 2 places (never "-0.00"). */
export function fromMinorUnits(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const text = `${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/**
 * The exact sum of 2-place decimal strings, with 2 places: the hot path of
 * the totals, in integers (BigInt) rather than decimal objects. It gives the
 * same text as money.ts's sumAmounts for every such input.
 */
export function sumMinorUnits(values: readonly string[]): string {
  let sum = 0n;
  for (const v of values) sum += toMinorUnits(v);
  return fromMinorUnits(sum);
}

/** An exact fraction num / den (den > 0): decimal text "-12.345" is -12345 / 1000. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

const POWERS_OF_TEN = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));
const tenTo = (places: number): bigint => POWERS_OF_TEN[places] ?? 10n ** BigInt(places);

/** Decimal text with any number of places ("7", "-0.005", "12.30") as an exact fraction. */
export function fractionOf(value: string): Fraction {
  if (TWO_PLACES.test(value)) return { num: BigInt(value.replace('.', '')), den: 100n };
  const match = DECIMAL_TEXT.exec(value);
  if (!match) throw affordError('INVALID_ARGUMENT', `not a decimal number: ${value}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const units = BigInt(whole + fraction);
  return { num: sign === '-' ? -units : units, den: tenTo(fraction.length) };
}

/** numerator / denominator rounded half-up to a whole number: a tie goes away from zero, as decimal.js's ROUND_HALF_UP. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw affordError('INVALID_ARGUMENT', 'division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = n / d + ((n % d) * 2n >= d ? 1n : 0n);
  return negative ? -quotient : quotient;
}

/** A fraction in minor units, half-up to the minor unit. */
export function roundToMinorUnits(value: Fraction): bigint {
  return divideHalfUp(value.num * 100n, value.den);
}
