import { addMonths, isMonth, monthOf } from '../domain/months.js';
import { affordError } from '../domain/errors.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Month {
  readonly key: string; // YYYY-MM
  readonly year: number;
  readonly month: number; // 1-12
  readonly days: number;
  readonly start: number; // epoch ms of the 1st, 00:00 UTC
}

export function monthFromKey(key: string): Month {
  if (!isMonth(key)) throw affordError('INVALID_ARGUMENT', `not a YYYY-MM month: '${key}'`);
  const [year, month] = key.split('-').map(Number) as [number, number];
  return { key, year, month, days: new Date(Date.UTC(year, month, 0)).getUTCDate(), start: Date.UTC(year, month - 1, 1) };
}

/** The last complete month before the one containing `now`. */
export function defaultEndMonth(now: Date = new Date()): string {
  return addMonths(monthOf(now), -1);
}

/** `count` whole months ending with `endMonth`, oldest first. */
export function periodMonths(endMonth: string, count: number): Month[] {
  return Array.from({ length: count }, (_, i) => monthFromKey(addMonths(endMonth, i - count + 1)));
}

export function dayAt(m: Month, day: number, hour = 0, minute = 0): number {
  return m.start + (day - 1) * DAY + hour * HOUR + minute * MINUTE;
}

function weekday(m: Month, day: number): number {
  return new Date(dayAt(m, day)).getUTCDay();
}

/**
 * Moves a weekend day to a working day inside the same month: banks pay
 * credits early (the Friday before) and collect direct debits late (the
 * Monday after), unless that would leave the month.
 */
export function workingDay(m: Month, day: number, direction: 'back' | 'forward'): number {
  const d = Math.min(Math.max(day, 1), m.days);
  const wd = weekday(m, d);
  if (wd !== 0 && wd !== 6) return d;
  const forward = wd === 6 ? d + 2 : d + 1;
  const back = wd === 6 ? d - 1 : d - 2;
  if (direction === 'forward') return forward <= m.days ? forward : back;
  return back >= 1 ? back : forward;
}

/** ISO 8601 UTC to the second, as upstream banks send it. */
export function iso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** UK tax years start in April; some amounts (child benefit, council tax) change then. */
export function taxYear(m: Month): number {
  return m.month >= 4 ? m.year : m.year - 1;
}
