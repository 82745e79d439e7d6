import { z } from 'zod';
import { currencyParam, dateOrInstantParam, envelopeOf, listParam, moneyOut, queryString } from './common.js';

export const OP_TRANSACTIONS_GET = 'financial_v2_transactions_get';

export const PAGE_SIZE_DEFAULT = 100;
const STATUSES = ['booked', 'pending', 'declined'] as const;
type TransactionStatus = (typeof STATUSES)[number];
const LABELS_MESSAGE = 'is not supported: afford keeps no transaction labels';
export const PAGE_SIZE_MAX = 200;
const PAGE_SIZE_MESSAGE = `must be a whole number from 1 to ${PAGE_SIZE_MAX}`;

export const transactionsQuery = z.object({
  date_from: dateOrInstantParam.optional(),
  date_to: dateOrInstantParam.optional(),
  page_size: z
    .string()
    .regex(/^\d{1,6}$/, PAGE_SIZE_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= PAGE_SIZE_MAX, PAGE_SIZE_MESSAGE)
    .default(PAGE_SIZE_DEFAULT),
  page_token: z.string().min(1, 'must not be empty').max(2000, 'is not a valid page token').optional(),
  // Repeatable (?account_id=a&account_id=b): a report restricted to several accounts links here with all of them.
  account_id: z
    .union([queryString, z.array(queryString).max(50, 'must be given at most 50 times')])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  category_l1: queryString.optional(),
  category_l2: queryString.optional(),
  credit_debit_indicator: z.enum(['credit', 'debit']).optional(),
  // Repeatable, as in the reference (?status=booked&status=pending); a comma list is taken too.
  status: z
    .union([z.string(), z.array(z.string()).max(3, 'must be given at most 3 times')])
    .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()))])
    .refine((list): list is TransactionStatus[] => list.every((v) => (STATUSES as readonly string[]).includes(v)), 'must be one of: booked, pending, declined')
    .optional(),
  /** The merchant's display name or slug (case aside): the reference's "human readable identifier of the merchant". */
  merchant: queryString.optional(),
  /** The reference filters by its transaction labels; afford keeps none, so it refuses the filter rather than ignore it. */
  include_label_ids: z.unknown().refine((v) => v === undefined, LABELS_MESSAGE).optional(),
  'include_label_ids[]': z.unknown().refine((v) => v === undefined, LABELS_MESSAGE).optional(),
  currency: currencyParam.optional(),
  'include_tags[]': listParam.optional(),
  include_tags: listParam.optional(),
  'exclude_tags[]': listParam.optional(),
  exclude_tags: listParam.optional(),
  updated_after: dateOrInstantParam.optional(),
  bucket_id: queryString.optional(),
  bucket_l1: queryString.optional(),
  bucket_l2: queryString.optional(),
  // Repeatable: the transactions an insight figure sums (any of the keys), as its _links give them.
  insight: z
    .union([queryString, z.array(queryString).max(50, 'must be given at most 50 times')])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
});

export type TransactionsQuery = z.output<typeof transactionsQuery>;

/** A category level: its slug and confidence (`0.00` when none was given, as the reference requires one). */
const slugOut = z.object({ slug: z.string(), confidence: z.string() });

export const transactionOut = z.object({
  transaction_id: z.string(),
  account_id: z.string(),
  provider: z.string(),
  description: z.string(),
  credit_debit_indicator: z.enum(['credit', 'debit']),
  amount: moneyOut,
  date_time: z.iso.datetime(),
  /** The merchant's display name when there is one, else the description: what the reference suggests an app shows. */
  suggested_description: z.string(),
  status: z.enum(['booked', 'pending', 'declined']),
  enrichments: z.object({
    categories: z.object({ l1: slugOut, l2: slugOut }),
    regularity: z
      .object({ frequency: z.string(), predicted_date_times: z.array(z.string()), group_label: z.string().optional() })
      .optional(),
    merchant: z.record(z.string(), z.unknown()).optional(),
  }),
  tags: z.array(z.string()),
  posted_date_time: z.iso.datetime().optional(),
  value_date_time: z.iso.datetime().optional(),
  merchant_category_code: z.string().optional(),
  counterparty: z.object({ name: z.string().optional(), identifier: z.string().optional() }).optional(),
  running_balance: moneyOut.optional(),
});

export type TransactionOut = z.infer<typeof transactionOut>;

export const transactionsMetadata = z.object({
  results: z.number().int().nonnegative(),
  next_page_token: z.string().optional(),
  /** With updated_after: the instant it was read as, and (on the first page) the transactions deleted since. */
  updated_after: z.iso.datetime().optional(),
  deleted: z.array(z.object({ transaction_id: z.string(), at: z.iso.datetime() })).optional(),
});

export const transactionsResponse = envelopeOf(OP_TRANSACTIONS_GET, z.array(transactionOut), transactionsMetadata);
