import { compareDecimals, isBelowZero } from '../domain/decimal-order.js';
import { divideHalfUp, fractionOf, fromMinorUnits, type Fraction } from '../domain/minor-units.js';
import { monthlyAverage, type Money } from '../domain/money.js';
import type { MonthRange } from '../domain/months.js';
import { transactionsLink } from '../domain/transactions-link.js';
import type { AmountConsistency, InsightFigure, InsightMonth, InsightTotal } from './insights-model.js';
import type { InsightCell } from './insights-repository.js';
import { difference, fixed2, moneyOf, monthsOf, sumFixed2 } from './plain-amounts.js';

/**
 * The building blocks of the insights: a key's figure from the SQL cells,
 * links, medians and shares. SQL sums; the arithmetic here (medians, shares,
 * scaling to a month) is exact, on fractions of BigInts, and each result is
 * rounded once, half-up to the penny (or to 0.01 of a percent), as
 * decimal.js's ROUND_HALF_UP does. A nightly run computes hundreds of
 * thousands of these: decimal objects cost it seconds.
 */

export interface FigureContext {
  range: MonthRange;
  currency: string;
  accountIds?: readonly string[];
  /** The cells of one customer and range, by key. */
  cells: Map<string, InsightCell[]>;
}

export function cellsByKey(cells: readonly InsightCell[]): Map<string, InsightCell[]> {
  const map = new Map<string, InsightCell[]>();
  for (const c of cells) {
    let list = map.get(c.key);
    if (!list) map.set(c.key, (list = []));
    list.push(c);
  }
  return map;
}

// Links name no customer: the nightly run's customers share most of them (income, spending, the signals, month by month).
const linkCache = new Map<string, string>();
const LINK_CACHE_LIMIT = 50_000;

/**
 * The insight key that no transaction carries: the link of a figure made of
 * no key (no verified stream, say) lists nothing, where a link without an
 * `insight` filter would have listed every transaction.
 */
export const NO_INSIGHT = 'none';

export function insightLink(ctx: FigureContext, given: readonly string[], months: MonthRange = ctx.range): string {
  const keys = given.length > 0 ? given : [NO_INSIGHT];
  const cacheKey = [months.from, months.to, ctx.currency, ...(ctx.accountIds ?? []), '\u0001', ...keys].join('\u0000');
  let link = linkCache.get(cacheKey);
  if (link === undefined) {
    link = transactionsLink({ insights: keys, range: months, currency: ctx.currency, accountIds: ctx.accountIds });
    if (linkCache.size >= LINK_CACHE_LIMIT) linkCache.clear();
    linkCache.set(cacheKey, link);
  }
  return link;
}

/** The figure of the transactions carrying any of `keys` (keys whose transactions never overlap, or one key). */
export function figureOf(ctx: FigureContext, keys: readonly string[]): InsightFigure {
  const cells = keys.flatMap((k) => ctx.cells.get(k) ?? []);
  const overall = cells.filter((c) => c.month === null);
  const byMonth = new Map<string, InsightCell[]>();
  for (const c of cells) {
    if (c.month === null) continue;
    const list = byMonth.get(c.month);
    if (list) list.push(c);
    else byMonth.set(c.month, [c]);
  }
  const monthly_totals: InsightMonth[] = monthsOf(ctx.range).map((month) => {
    const inMonth = byMonth.get(month) ?? [];
    return {
      month,
      amount: moneyOf(sumFixed2(inMonth.map((c) => c.total)), ctx.currency),
      transaction_count: inMonth.reduce((n, c) => n + c.transaction_count, 0),
      _links: { transactions: insightLink(ctx, keys, { from: month, to: month }) },
    };
  });
  return {
    overall_total: moneyOf(sumFixed2(overall.map((c) => c.total)), ctx.currency),
    transaction_count: overall.reduce((n, c) => n + c.transaction_count, 0),
    monthly_totals,
    _links: { transactions: insightLink(ctx, keys) },
  };
}

/** The total of one key without its months (see InsightTotal). */
export function totalOf(ctx: FigureContext, key: string): InsightTotal {
  const overall = (ctx.cells.get(key) ?? []).find((c) => c.month === null);
  return {
    overall_total: moneyOf(overall?.total ?? '0', ctx.currency),
    transaction_count: overall?.transaction_count ?? 0,
    _links: { transactions: insightLink(ctx, [key]) },
  };
}

/** a - b, exactly. */
function minusFraction(a: Fraction, b: Fraction): Fraction {
  return a.den === b.den ? { num: a.num - b.num, den: a.den } : { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

/** numerator / denominator as a percentage, half-up to 2 places; the denominator is not zero. */
function percentOf(numerator: Fraction, denominator: Fraction): string {
  // (n.num / n.den) / (d.num / d.den) * 100, in hundredths of a percent.
  return fromMinorUnits(divideHalfUp(numerator.num * denominator.den * 10_000n, numerator.den * denominator.num));
}

/** The median of amounts already sorted ascending; two middle values are averaged, half-up. */
export function median(sorted: readonly string[]): string {
  if (sorted.length === 0) return '0.00';
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return fixed2(sorted[mid] ?? '0');
  const a = fractionOf(sorted[mid - 1] ?? '0');
  const b = fractionOf(sorted[mid] ?? '0');
  // (a + b) / 2 in pence: (a.num * b.den + b.num * a.den) * 100 / (2 * a.den * b.den).
  const sum = a.den === b.den ? { num: a.num + b.num, den: a.den } : { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
  return fromMinorUnits(divideHalfUp(sum.num * 100n, sum.den * 2n));
}

/** The median of a figure's months: what a typical month of it comes to. */
export function medianOfMonths(amounts: readonly Money[], currency: string): Money {
  const sorted = amounts.map((a) => a.value).sort(compareAmounts);
  return moneyOf(median(sorted), currency);
}

export function consistency(sorted: readonly string[], currency: string, maxSpreadPercent: string): AmountConsistency {
  const min = sorted[0] ?? '0';
  const max = sorted.at(-1) ?? '0';
  const mid = median(sorted);
  const midFraction = fractionOf(mid);
  // (max - min) / median * 100.
  const spread = midFraction.num === 0n ? '0.00' : percentOf(minusFraction(fractionOf(max), fractionOf(min)), midFraction);
  return {
    min: moneyOf(min, currency),
    max: moneyOf(max, currency),
    median: moneyOf(mid, currency),
    spread_percent: spread,
    consistent: compareDecimals(spread, maxSpreadPercent) <= 0,
  };
}

/** A regular group's month: its median payment times payments a year over 12. Irregular: its total over the range's months. */
export function predictedMonthly(medianAmount: string, perYear: number | null, total: string, months: number, currency: string): Money {
  if (perYear === null) return moneyOf(monthlyAverage(total, months), currency);
  const { num, den } = fractionOf(medianAmount);
  return moneyOf(fromMinorUnits(divideHalfUp(num * BigInt(perYear) * 100n, den * 12n)), currency);
}

/**
 * part / whole as a percentage, 2 places, rounded toward zero; a part of
 * nothing is 100% (and nothing of nothing 0%). Rounded toward zero so that a
 * share is never shown at a threshold it has not reached: 9.995% rounded
 * half-up read 10.00, and raised a flag set at "10% or more".
 */
export function sharePercent(part: string, whole: string): string {
  const w = fractionOf(whole);
  const p = fractionOf(part);
  if (w.num === 0n) return p.num === 0n ? '0.00' : '100.00';
  // (p.num / p.den) / (w.num / w.den) * 100 in hundredths of a percent; BigInt division rounds toward zero.
  return fromMinorUnits((p.num * w.den * 10_000n) / (p.den * w.num));
}

/** Orders decimal strings ascending, exactly. */
export const compareAmounts = (a: string, b: string): number => compareDecimals(a, b);

export const atLeast = (value: string, threshold: string): boolean => compareDecimals(value, threshold) >= 0;

export function sumMoney(values: readonly Money[], currency: string): Money {
  return moneyOf(sumFixed2(values.map((v) => v.value)), currency);
}

export function minus(a: string, b: string): string {
  return difference(a, b);
}

/** Below zero ("-0.00" is not). */
export const isNegative = (value: string): boolean => isBelowZero(value);
