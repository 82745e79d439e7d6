import { Decimal } from 'decimal.js';
import { affordError } from './errors.js';
import { divideHalfUp, fractionOf, fromMinorUnits } from './minor-units.js';

/** A configured copy, so that no other user of decimal.js can change our rounding. */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export interface Money {
  value: string;
  currency: string;
}

export function toFixed2(value: Decimal.Value): string {
  return new D(value).toDecimalPlaces(2, D.ROUND_HALF_UP).toFixed(2);
}

export function sumAmounts(values: readonly Decimal.Value[]): string {
  return toFixed2(values.reduce<Decimal>((acc, v) => acc.plus(v), new D(0)));
}

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** total / months, half-up to 2 places. Decimal text (what the reports pass) is divided exactly in BigInt. */
export function monthlyAverage(total: Decimal.Value, months: number): string {
  if (months <= 0) throw affordError('INVALID_ARGUMENT', 'months must be positive');
  if (typeof total === 'string' && Number.isSafeInteger(months) && DECIMAL_TEXT.test(total)) {
    const { num, den } = fractionOf(total);
    return fromMinorUnits(divideHalfUp(num * 100n, den * BigInt(months)));
  }
  return toFixed2(new D(total).dividedBy(months));
}

export function subtract(a: Decimal.Value, b: Decimal.Value): string {
  return toFixed2(new D(a).minus(b));
}

export function money(value: Decimal.Value, currency: string): Money {
  return { value: toFixed2(value), currency };
}

export function isZero(value: Decimal.Value): boolean {
  return new D(value).isZero();
}

/** Variance of monthly values, population form (divide by n): the months of the range are the whole population. */
export function populationVariance(values: readonly Decimal.Value[]): string {
  if (values.length === 0) return '0.00';
  const n = values.length;
  const mean = values.reduce<Decimal>((a, v) => a.plus(v), new D(0)).dividedBy(n);
  const sq = values.reduce<Decimal>((a, v) => a.plus(new D(v).minus(mean).pow(2)), new D(0));
  return toFixed2(sq.dividedBy(n));
}
