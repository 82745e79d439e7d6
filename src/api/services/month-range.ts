import { MAX_RANGE_MONTHS, wholeMonthRange } from '../../domain/month-range.js';
import { monthOf, type MonthRange } from '../../domain/months.js';
import { dayOrInstant } from '../../domain/timestamps.js';
import { validationError } from '../errors.js';

export interface RangeQuery {
  month_from?: string;
  month_to?: string;
  date_from?: string;
  date_to?: string;
}

/** The UTC month of an RFC 3339 instant or a YYYY-MM-DD day. */
export function monthOfDateParam(value: string): string {
  return monthOf(new Date(dayOrInstant(value)));
}

/**
 * Whole calendar months from month_from/month_to, or from date_from/date_to
 * widened to the months that contain them; the defaults for a missing end
 * are the shared rule in domain/month-range.
 */
export function resolveMonthRange(q: RangeQuery, now: Date = new Date()): MonthRange {
  const errors: Record<string, string> = {};
  if (q.month_from !== undefined && q.date_from !== undefined) errors['date_from'] = 'cannot be combined with month_from';
  if (q.month_to !== undefined && q.date_to !== undefined) errors['date_to'] = 'cannot be combined with month_to';
  if (Object.keys(errors).length) throw validationError(errors);

  const toKey = q.month_to !== undefined ? 'month_to' : 'date_to';
  // A start left to its default is never the one at fault: name the end given.
  const fromKey = q.month_from !== undefined ? 'month_from' : q.date_from !== undefined ? 'date_from' : toKey;
  const from = q.month_from ?? (q.date_from !== undefined ? monthOfDateParam(q.date_from) : undefined);
  const to = q.month_to ?? (q.date_to !== undefined ? monthOfDateParam(q.date_to) : undefined);
  const result = wholeMonthRange({ from, to }, now);
  if (result.ok) return result.range;
  if (result.problem === 'from_after_to') throw validationError({ [fromKey]: `must not be after ${toKey}` });
  throw validationError({ [toKey]: `the range must span at most ${MAX_RANGE_MONTHS} months` });
}
