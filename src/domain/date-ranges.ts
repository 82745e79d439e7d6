import { addMonths, firstInstant, lastDay, monthOf } from './months.js';

/**
 * The assessment periods of a customer application: for each duration (n
 * months `PnM` or n days `PnD`), the period of that length that ends either
 * with the last complete calendar month (`latest_calendar_month`) or with
 * today (`latest_date`), in UTC.
 */
export type DateRangeEnd = 'latest_calendar_month' | 'latest_date';
export const DATE_RANGE_ENDS: readonly DateRangeEnd[] = ['latest_calendar_month', 'latest_date'];
export const DEFAULT_DURATIONS: readonly string[] = ['P1M', 'P3M', 'P6M', 'P12M'];

/** PnM with n from 1 to 120, or PnD with n from 1 to 3660: at most ten years either way. */
export const DURATION_PATTERN = /^P([1-9][0-9]{0,3})([MD])$/;
export const MAX_DURATION_MONTHS = 120;
export const MAX_DURATION_DAYS = 3660;

export interface DateRange {
  from: string;
  to: string;
  duration: string;
}

export function isDuration(value: string): boolean {
  const m = DURATION_PATTERN.exec(value);
  if (!m) return false;
  const n = Number(m[1]);
  return m[2] === 'M' ? n <= MAX_DURATION_MONTHS : n <= MAX_DURATION_DAYS;
}

const dayOf = (d: Date): string => d.toISOString().slice(0, 10);
const addDays = (day: string, n: number): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));

/** The last day of the period: the last day of the previous month, or today. */
function endDay(now: Date, end: DateRangeEnd): string {
  return end === 'latest_date' ? dayOf(now) : lastDay(addMonths(monthOf(now), -1));
}

function startDay(last: string, end: DateRangeEnd, duration: string): string {
  const [, count, unit] = DURATION_PATTERN.exec(duration) as unknown as [string, string, 'M' | 'D'];
  const n = Number(count);
  if (unit === 'D') return addDays(last, 1 - n);
  // Whole calendar months end on a month's last day: start on the first of the month n-1 before.
  if (end === 'latest_calendar_month') return firstInstant(addMonths(last.slice(0, 7), 1 - n)).slice(0, 10);
  // n months to today: from the day after the same date n months ago (13 July -> 14 June).
  return addDays(sameDayMonthsBefore(last, n), 1);
}

/** The same day of the month n months earlier, or that month's last day when it is shorter. */
function sameDayMonthsBefore(day: string, n: number): string {
  const month = addMonths(day.slice(0, 7), -n);
  const last = lastDay(month);
  const wanted = `${month}-${day.slice(8, 10)}`;
  return wanted > last ? last : wanted;
}

export function dateRanges(now: Date, end: DateRangeEnd, durations: readonly string[]): DateRange[] {
  const last = endDay(now, end);
  return durations.map((duration) => ({ from: `${startDay(last, end, duration)}T00:00:00Z`, to: `${last}T23:59:59Z`, duration }));
}
