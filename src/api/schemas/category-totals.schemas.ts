import { z } from 'zod';
import { dayOrInstant } from '../../domain/timestamps.js';
import { currencyParam, envelopeOf, listParam, moneyOut, queryString } from './common.js';
import { UTC_ONLY_MESSAGE, utcOnly } from './timezone.js';

export const OP_CATEGORY_TOTALS_GET = 'v2_category_totals_get';

const DATE_MESSAGE = 'must be a month (YYYY-MM), a date (YYYY-MM-DD) or an RFC 3339 timestamp';
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** YYYY-MM, YYYY-MM-DD or RFC 3339; the range is widened to whole months. */
export const monthOrDateParam = z.string().refine((s) => {
  if (MONTH.test(s)) return true;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(s);
  if (!day && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(s)) return false;
  const ms = Date.parse(dayOrInstant(s));
  return !Number.isNaN(ms) && new Date(dayOrInstant(s.slice(0, 10))).toISOString().startsWith(s.slice(0, 10));
}, DATE_MESSAGE);

export const categoryTotalsQuery = z.object({
  from: monthOrDateParam.refine(utcOnly, UTC_ONLY_MESSAGE).optional(),
  to: monthOrDateParam.refine(utcOnly, UTC_ONLY_MESSAGE).optional(),
  category: listParam.optional(),
  exclude_category: listParam.optional(),
  currency: currencyParam.optional(),
  account_id: queryString.optional(),
  include_l2: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false').transform((v) => v === 'true'),
  category_label: z.enum(['essential', 'nonessential', 'travel']).optional(),
});

export type CategoryTotalsQuery = z.output<typeof categoryTotalsQuery>;

export const currencyTotalOut = z.object({
  amount: moneyOut,
  transaction_count: z.number().int().nonnegative(),
  monthly_average: moneyOut,
  /** Population variance of the monthly amounts, in squared currency units. */
  variance: z.string().regex(/^\d+\.\d{2}$/),
  monthly: z.array(z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), amount: moneyOut, transaction_count: z.number().int().nonnegative() })),
});

export type CurrencyTotalOut = z.infer<typeof currencyTotalOut>;

export const l2TotalsOut = z.object({
  name: z.string(),
  credit_total: z.array(currencyTotalOut),
  debit_total: z.array(currencyTotalOut),
});

export const categoryTotalsEntryOut = l2TotalsOut.extend({ l2_totals: z.array(l2TotalsOut) });

export type CategoryTotalsEntryOut = z.infer<typeof categoryTotalsEntryOut>;

export const categoryTotalsMetadata = z.object({
  from: z.string().regex(/^\d{4}-\d{2}-01T00:00:00Z$/),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}T23:59:59Z$/),
  credit_total: z.array(currencyTotalOut),
  debit_total: z.array(currencyTotalOut),
});

export const categoryTotalsResponse = envelopeOf(OP_CATEGORY_TOTALS_GET, z.array(categoryTotalsEntryOut), categoryTotalsMetadata);
