import { z } from 'zod';
import { isKnownCurrency, UNKNOWN_CURRENCY_MESSAGE } from '../../domain/currencies.js';
import { dayOrInstant } from '../../domain/timestamps.js';

/** Money as it leaves the service: a string decimal with 2 places, and a currency. */
export const moneyOut = z.object({
  value: z.string().regex(/^-?\d+\.\d{2}$/),
  currency: z.string(),
});

export const linksOut = z.object({ transactions: z.string().startsWith('/financial/v2/transactions?') });

export const emptyObject = z.object({}).strict();

/** The response envelope of every operation. */
export function envelopeOf<O extends string, D extends z.ZodType, M extends z.ZodType>(operationId: O, data: D, metadata: M) {
  return z.object({ operation_id: z.literal(operationId), data, metadata });
}

export const clientErrorOut = z.object({
  operation_id: z.string(),
  code_id: z.string(),
  message: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  errors: z.record(z.string(), z.string()),
});

export const serverErrorOut = z.object({ message: z.string() }).strict();

/** A single-valued query parameter, given at most once. */
export const queryString = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** A flag given without a value (`?bucket_lookup`); `=false` or `=0` turns it off. */
export const queryFlag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && v !== 'false' && v !== '0');

/** A currency afford knows (ISO 4217): an unknown one is a 400, never an empty answer. */
export const currencyParam = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code')
  .refine(isKnownCurrency, UNKNOWN_CURRENCY_MESSAGE);

/**
 * The years a month or date parameter may name. Stored events lie in 1970 to
 * 2100; the bounds only keep a range's arithmetic (the month after, the day
 * after, a zone's offset) within the four-digit years that dates are written in.
 */
export const PARAM_YEARS = { min: 1000, max: 9998 } as const;
const YEARS_MESSAGE = `must be in the years ${PARAM_YEARS.min} to ${PARAM_YEARS.max}`;
const inParamYears = (s: string): boolean => {
  const year = Number(s.slice(0, 4));
  return year >= PARAM_YEARS.min && year <= PARAM_YEARS.max;
};

export const monthParam = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month formatted YYYY-MM')
  .refine(inParamYears, YEARS_MESSAGE);

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** RFC 3339, or YYYY-MM-DD meaning that day in UTC. */
export const dateOrInstantParam = z
  .string()
  .refine((s) => (RFC3339.test(s) || DAY.test(s)) && !Number.isNaN(Date.parse(dayOrInstant(s))) && validDay(s) && validTime(s), {
    message: 'must be an RFC 3339 timestamp or a date formatted YYYY-MM-DD',
  })
  .refine(inParamYears, YEARS_MESSAGE);

/**
 * Whether an instant's hour is a real one: the date parser takes 24:00 for
 * the next day's midnight, and so a range ending `2024-01-31T24:00:00Z` ran
 * into February. (It refuses a minute or second of 60, and an offset past
 * 23:59, by itself.)
 */
function validTime(s: string): boolean {
  return s.length === 10 || Number(s.slice(11, 13)) <= 23;
}

function validDay(s: string): boolean {
  const day = s.slice(0, 10);
  return new Date(dayOrInstant(day)).toISOString().slice(0, 10) === day;
}

export function isDayOnly(s: string): boolean {
  return DAY.test(s);
}

/** Comma list or repeated parameter -> list of non-empty strings. */
export const listParam = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== ''))
  .refine((items) => items.length <= 50, 'must list at most 50 values')
  .refine((items) => items.every((s) => s.length <= 200), 'must list values of at most 200 characters');
