import { addMonths, DEFAULT_RANGE_MONTHS, lastCompleteMonths, monthCount, type MonthRange } from './months.js';

/**
 * The one rule for the whole-month range a report or a bucket total covers,
 * shared by the API and the command line. With neither end given, the last
 * 6 complete months; with only the last month, the 6 months ending there;
 * with only the first month, up to the last complete month (or that month
 * alone, when it is later). The range may not run backwards or span more
 * than 120 months; the callers word those problems in their own terms.
 */
export const MAX_RANGE_MONTHS = 120;

export type MonthRangeResult = { ok: true; range: MonthRange } | { ok: false; problem: 'from_after_to' | 'too_long' };

export function wholeMonthRange(given: { from?: string; to?: string }, now: Date = new Date()): MonthRangeResult {
  const lastComplete = lastCompleteMonths(1, now).to;
  let range: MonthRange;
  if (given.from !== undefined && given.to !== undefined) range = { from: given.from, to: given.to };
  else if (given.from !== undefined) range = { from: given.from, to: given.from > lastComplete ? given.from : lastComplete };
  else if (given.to !== undefined) range = { from: addMonths(given.to, -(DEFAULT_RANGE_MONTHS - 1)), to: given.to };
  else range = lastCompleteMonths(DEFAULT_RANGE_MONTHS, now);

  if (range.from > range.to) return { ok: false, problem: 'from_after_to' };
  if (monthCount(range) > MAX_RANGE_MONTHS) return { ok: false, problem: 'too_long' };
  return { ok: true, range };
}
