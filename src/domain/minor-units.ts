import { affordError } from './errors.js';

/** A decimal string with at most 2 places ("-12.3", "0.05", "7") as an exact count of minor units (pence). */
export function toMinorUnits(value: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) throw affordError('INVALID_ARGUMENT', `not an amount with at most 2 decimals: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(whole ?? '0') * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign === '-' ? -units : units;
}

/** Minor units back to a decimal string with exactly 2 places. */
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
