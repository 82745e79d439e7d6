import { addMonths, DEFAULT_RANGE_MONTHS, lastCompleteMonths, monthCount, monthOf, type MonthRange } from '../../domain/months.js';
import { validationError } from '../errors.js';
import { isDayOnly } from '../schemas/common.js';

/** The longest range a totals request may span. */
export const MAX_RANGE_MONTHS = 120;

export interface RangeQuery {
  month_from?: string;
  month_to?: string;
  date_from?: string;
  date_to?: string;
}

/** The UTC month of an RFC 3339 instant or a YYYY-MM-DD day. */
export function monthOfDateParam(value: string): string {
  return monthOf(new Date(isDayOnly(value) ? `${value}T00:00:00Z` : value));
}

/**
 * Whole calendar months from month_from/month_to, or from date_from/date_to
 * widened to the months that contain them. With neither end, the last 6
 * complete months; with one end, the other follows from it.
 */
export function resolveMonthRange(q: RangeQuery, now: Date = new Date()): MonthRange {
  const errors: Record<string, string> = {};
  if (q.month_from !== undefined && q.date_from !== undefined) errors['date_from'] = 'cannot be combined with month_from';
  if (q.month_to !== undefined && q.date_to !== undefined) errors['date_to'] = 'cannot be combined with month_to';
  if (Object.keys(errors).length) throw validationError(errors);

  const fromKey = q.month_from !== undefined ? 'month_from' : 'date_from';
  const toKey = q.month_to !== undefined ? 'month_to' : 'date_to';
  const givenFrom = q.month_from ?? (q.date_from !== undefined ? monthOfDateParam(q.date_from) : undefined);
  const givenTo = q.month_to ?? (q.date_to !== undefined ? monthOfDateParam(q.date_to) : undefined);
  const lastComplete = lastCompleteMonths(1, now).to;

  let range: MonthRange;
  if (givenFrom !== undefined && givenTo !== undefined) range = { from: givenFrom, to: givenTo };
  else if (givenFrom !== undefined) range = { from: givenFrom, to: givenFrom > lastComplete ? givenFrom : lastComplete };
  else if (givenTo !== undefined) range = { from: addMonths(givenTo, -(DEFAULT_RANGE_MONTHS - 1)), to: givenTo };
  else range = lastCompleteMonths(DEFAULT_RANGE_MONTHS, now);

  if (range.from > range.to) throw validationError({ [fromKey]: `must not be after ${toKey}` });
  if (monthCount(range) > MAX_RANGE_MONTHS) throw validationError({ [toKey]: `the range must span at most ${MAX_RANGE_MONTHS} months` });
  return range;
}
