import { z } from 'zod';
import { currencyParam, dateOrInstantParam, envelopeOf, linksOut, monthParam, moneyOut } from './common.js';
import { UTC_ONLY_MESSAGE, timezoneParam, utcOnly } from './timezone.js';

/** The levels a bucket totals request may group by, in any order, each at most once. */
export type GroupLevel = 'bucket_l1' | 'bucket_l2' | 'month';
export const GROUP_LEVELS: readonly GroupLevel[] = ['bucket_l1', 'bucket_l2', 'month'];

export const OP_BUCKET_TOTALS_GET = 'aggregations_v2_bucket_totals_get';

const GROUP_BY_MESSAGE = `must be a comma list of ${GROUP_LEVELS.join(', ')}, each at most once`;

export const groupByParam = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : GROUP_BY_MESSAGE) })
  .transform((s) => s.split(',').map((v) => v.trim()))
  .refine((levels) => levels.length > 0 && levels.every((l) => (GROUP_LEVELS as readonly string[]).includes(l)) && new Set(levels).size === levels.length, {
    message: GROUP_BY_MESSAGE,
  })
  .transform((levels) => levels as GroupLevel[]);

export const bucketTotalsQuery = z.object({
  group_by: groupByParam,
  month_from: monthParam.optional(),
  month_to: monthParam.optional(),
  date_from: dateOrInstantParam.refine(utcOnly, UTC_ONLY_MESSAGE).optional(),
  date_to: dateOrInstantParam.refine(utcOnly, UTC_ONLY_MESSAGE).optional(),
  currency: currencyParam.default('GBP'),
  timezone: timezoneParam.optional(),
});

const directionTotalsOut = z.object({
  total: moneyOut,
  monthly_average: moneyOut,
  transaction_count: z.number().int().nonnegative(),
  _links: linksOut,
});

export interface TotalsGroupOut {
  group_name: string;
  group_type: GroupLevel;
  incoming: z.infer<typeof directionTotalsOut>;
  outgoing: z.infer<typeof directionTotalsOut>;
  transaction_count: number;
  _links: z.infer<typeof linksOut>;
  subtotals?: TotalsGroupOut[];
}

export const totalsGroupOut: z.ZodType<TotalsGroupOut> = z.lazy(() =>
  z.object({
    group_name: z.string(),
    group_type: z.enum(['bucket_l1', 'bucket_l2', 'month']),
    incoming: directionTotalsOut,
    outgoing: directionTotalsOut,
    transaction_count: z.number().int().nonnegative(),
    _links: linksOut,
    subtotals: z.array(totalsGroupOut).optional(),
  }),
);

export const bucketTotalsMetadata = z.object({
  date_from: z.string().regex(/^\d{4}-\d{2}-01T00:00:00Z$/),
  date_to: z.string().regex(/^\d{4}-\d{2}-\d{2}T23:59:59Z$/),
  group_by: z.array(z.enum(['bucket_l1', 'bucket_l2', 'month'])),
  currency: z.string(),
});

export const bucketTotalsResponse = envelopeOf(OP_BUCKET_TOTALS_GET, z.array(totalsGroupOut), bucketTotalsMetadata);
