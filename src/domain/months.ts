/** Whole calendar months in UTC. A month is written YYYY-MM. */
const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export interface MonthRange {
  from: string;
  to: string;
}

export function isMonth(value: string): boolean {
  return MONTH_PATTERN.test(value);
}

export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  // Not Date.UTC(y, …), which takes the years 0 to 99 for 1900 to 1999.
  const d = new Date(0);
  d.setUTCFullYear(y, m - 1 + n, 1);
  return monthOf(d);
}

/** Inclusive count of months from..to. */
export function monthCount(range: MonthRange): number {
  const [fy, fm] = range.from.split('-').map(Number) as [number, number];
  const [ty, tm] = range.to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

export function monthsIn(range: MonthRange): string[] {
  const n = monthCount(range);
  return Array.from({ length: Math.max(n, 0) }, (_, i) => addMonths(range.from, i));
}

/** The months a request or report covers when told neither end: the last 6 complete ones. */
export const DEFAULT_RANGE_MONTHS = 6;

/** The last `n` complete months before the month containing `now`. */
export function lastCompleteMonths(n: number, now: Date = new Date()): MonthRange {
  const current = monthOf(now);
  return { from: addMonths(current, -n), to: addMonths(current, -1) };
}

export function firstInstant(month: string): string {
  return `${month}-01T00:00:00Z`;
}

export function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const day = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${month}-${String(day).padStart(2, '0')}`;
}

export function lastInstant(month: string): string {
  return `${lastDay(month)}T23:59:59Z`;
}

/** First day of the month, as a DATE literal for SQL parameters. */
export function monthStartDate(month: string): string {
  return `${month}-01`;
}
