/** Years a timestamp may fall in: nothing this service holds is older than Unix time or later than this century. */
export const YEAR_MIN = 1970;
export const YEAR_MAX = 2100;
/** How far ahead of the ingesting clock an `occurred_at` may be: clock skew, not a version that pins a record. */
export const OCCURRED_AT_MAX_FUTURE_DAYS = 30;

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** The days of a month (1 to 12) of the Gregorian calendar: the schema and the fast path's checks count them alike. */
export const daysInMonth = (year: number, month: number): number => (month === 2 && leap(year) ? 29 : (DAYS[month - 1] as number));

/**
 * Why `s` is not a real instant, or null. Every field is checked as written,
 * so that no impossible value (30 February, 24:00, offset +25:00) is rolled
 * over into another instant by the date parser.
 */
export function instantProblem(s: string): string | null {
  const m = SHAPE.exec(s);
  if (!m) return 'must be an ISO 8601 timestamp with a time zone';
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  // A year either side of the bounds may still be within them in UTC (checked below, once the rest is known real).
  const zoned = m[8] !== 'Z';
  if (year < YEAR_MIN - (zoned ? 1 : 0) || year > YEAR_MAX + (zoned ? 1 : 0)) return `must be in the years ${YEAR_MIN} to ${YEAR_MAX}`;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 'must be a real calendar date';
  if (hour > 23 || minute > 59 || second > 59) return 'must be a real time of day';
  if (m[8] !== 'Z' && (Number(m[10]) > 14 || Number(m[11]) > 59)) return 'must have a real zone offset';
  // The years bound the instant, which is stored in UTC: 00:30 on 1 January 1970 an hour ahead of UTC is 1969 there,
  // and 23:30 on 31 December 1969 an hour behind it is 1970.
  if (zoned) {
    const offset = (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
    const utcYear = new Date(Date.UTC(year, month - 1, day, hour, minute - offset)).getUTCFullYear();
    if (utcYear < YEAR_MIN || utcYear > YEAR_MAX) return `must be in the years ${YEAR_MIN} to ${YEAR_MAX}, in UTC`;
  }
  return null;
}

/**
 * An instant instantProblem takes, in UTC ('…T…Z'), to the microsecond, as
 * the store's TIMESTAMP holds it: three fraction digits, or six when it has
 * digits below the millisecond. A Date keeps milliseconds only: two
 * versions of a record a fraction of a millisecond apart were stored as one
 * instant, and the older could win on its event id. Digits past the
 * microsecond are dropped (an offset moves whole minutes, never them).
 */
export function utcInstant(s: string): string {
  const iso = new Date(s).toISOString();
  const belowMs = (SHAPE.exec(s)?.[7] ?? '').slice(4, 7).padEnd(3, '0');
  return belowMs === '000' ? iso : `${iso.slice(0, -1)}${belowMs}Z`;
}

