import { z } from 'zod';

/**
 * The reference API's `timezone` parameter (an IANA name, default Etc/UTC).
 * afford counts whole UTC calendar months (its monthly totals are kept that
 * way), so it takes the names of UTC and refuses any other zone with a 400
 * rather than answer for months the caller did not mean.
 */
export const DEFAULT_TIMEZONE = 'Etc/UTC';

const UTC_NAMES = new Set(
  ['Etc/UTC', 'UTC', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'Etc/GMT', 'GMT', 'Etc/GMT0', 'GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'GMT+0', 'GMT-0', 'Etc/Greenwich', 'Greenwich'].map((n) => n.toLowerCase()),
);

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timezoneParam = z
  .string()
  .max(100, 'must be at most 100 characters')
  .refine(isTimeZone, 'must be an IANA time zone name, such as Etc/UTC')
  .refine((name) => UTC_NAMES.has(name.toLowerCase()), 'must be Etc/UTC: afford counts whole UTC calendar months')
  .transform(() => DEFAULT_TIMEZONE);

const OFFSET = /([+-]\d{2}:\d{2})$/;

/**
 * A date_from/date_to of a monthly figure: a day, or an instant in UTC. An
 * offset such as +01:00 would move the instant into another UTC month and
 * widen the range by a whole month the caller never asked for; it is refused.
 */
export const utcOnly = (value: string): boolean => {
  const offset = OFFSET.exec(value)?.[1];
  return offset === undefined || offset === '+00:00' || offset === '-00:00';
};
export const UTC_ONLY_MESSAGE = 'must be in UTC (Z or +00:00): months are UTC calendar months';
