import { expect } from 'vitest';
import { z } from 'zod';

/**
 * What a client written for the reference API relies on in afford's answers,
 * operation by operation: the fields it requires, their types, where null is
 * allowed and which patterns hold. These are our own schemas, written from
 * the reference's published description; extra fields are allowed (a client
 * ignores what it does not know), missing or mistyped ones are not.
 *
 * The operation ids that docs/interface.md names are afford's, so these shapes
 * take any operation_id; the tests check the id separately.
 */

/** The reference's slug: names of definitions, buckets and categories. */
const slug = z.string().regex(/^[A-Za-z0-9_-]*$/, 'must be a slug');
const instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, 'must be an RFC 3339 timestamp');
const money = z.object({ value: z.string().regex(/^-?\d+\.\d{2}$/), currency: z.string().regex(/^[A-Z]{3}$/) });
const envelope = <D extends z.ZodType, M extends z.ZodType>(data: D, metadata: M) => z.object({ operation_id: z.string(), data, metadata });

const criterion = z.object({ bucket_l2: slug, category_l1: slug, category_l2: slug, additional_data: z.record(z.string(), z.unknown()).optional() });
const bucketGroup = z.object({ bucket_l1: slug, criteria: z.array(criterion), additional_data: z.record(z.string(), z.unknown()).optional() });
const bucketDefinition = z.object({ bucket_id: z.string(), name: slug, categorisation_model: z.string(), buckets: z.array(bucketGroup) });

const taskStatus = z.enum(['Pending', 'Completed', 'Failed']);
const refreshTask = z.object({
  task_id: z.string(),
  provider: z.string(),
  status: taskStatus,
  result: z.string().optional(),
  reconnect_required: z.boolean().optional(),
  step: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  text: z.enum(['Fetching access token', 'Fetching accounts', 'Fetching balances and transactions', 'Completed']),
});

const applicant = z.object({ first_name: z.string(), last_name: z.string() });
const customerApplication = z.object({
  application_id: z.string(),
  customer_id: z.string(),
  creation_date: instant,
  /** Required, never null: empty when no date is set. */
  deletion_date: z.union([instant, z.literal('')]),
  accounts_connected: z.number().int(),
  financial_data_consent: z.literal('one_time'),
  initiator_id: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  primary_applicant: applicant,
  secondary_applicants: z.array(applicant),
  review_status: z.string(),
  customer_link: z
    .object({ created_at: instant, url: z.string(), finished_connecting_accounts: z.boolean(), expired: z.boolean(), status: z.enum(['requested', 'in_progress', 'completed', 'expired']) })
    .nullable()
    .optional(),
});
const applicationMetadata = z.object({
  timezone: z.string(),
  date_range_end: z.enum(['latest_calendar_month', 'latest_date']),
  date_ranges: z.array(z.object({ from: instant, to: instant, duration: z.string().regex(/^P\d+[MD]$/) })),
});

// The reference requires a confidence on both levels.
const category = z.object({ slug: z.string(), confidence: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal') });
const transaction = z.object({
  transaction_id: z.string(),
  account_id: z.string(),
  description: z.string(),
  amount: money,
  credit_debit_indicator: z.enum(['credit', 'debit']),
  status: z.enum(['booked', 'pending', 'declined']),
  date_time: instant,
  suggested_description: z.string(),
  enrichments: z.object({ categories: z.object({ l1: category, l2: category }).optional() }).optional(),
  tags: z.array(z.string()).optional(),
});
const transactionsMetadata = z.object({
  results: z.number().int(),
  next_page_token: z.string().optional(),
  updated_after: z.string().optional(),
  deleted: z.array(z.object({ transaction_id: z.string(), at: z.string() })).optional(),
});

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID');
// A failed part names each error by field, as the reference's example of a failed task shows.
const subTaskError = z.record(z.string(), z.string()).optional();
const ingestSubTask = z.union([
  z.object({ customer_id: z.string(), customer_idempotent_identifier: z.undefined().optional(), status: taskStatus, result: z.string().optional(), error: subTaskError }),
  z.object({ customer_idempotent_identifier: z.string(), customer_id: z.undefined().optional(), status: taskStatus, result: z.string().optional(), error: subTaskError }),
]);

const links = z.object({ transactions: z.string() });
const direction = z.object({ total: money, monthly_average: money.optional(), transaction_count: z.number().int(), _links: links });
interface TotalsGroup {
  group_name: string;
  group_type: 'bucket_l1' | 'bucket_l2' | 'month';
  incoming: z.infer<typeof direction>;
  outgoing: z.infer<typeof direction>;
  transaction_count: number;
  _links: z.infer<typeof links>;
  subtotals?: TotalsGroup[];
}
const totalsGroup: z.ZodType<TotalsGroup> = z.lazy(() =>
  z.object({
    group_name: z.string(),
    group_type: z.enum(['bucket_l1', 'bucket_l2', 'month']),
    incoming: direction,
    outgoing: direction,
    transaction_count: z.number().int(),
    _links: links,
    subtotals: z.array(totalsGroup).optional(),
  }),
);
const currencyTotal = z.object({ amount: money, transaction_count: z.number().int() });
const categoryTotal = z.object({
  name: z.string(),
  credit_total: z.array(currencyTotal).optional(),
  debit_total: z.array(currencyTotal).optional(),
  l2_totals: z.array(z.object({ name: z.string(), credit_total: z.array(currencyTotal).optional(), debit_total: z.array(currencyTotal).optional() })).optional(),
});
const balance = z.object({ date: z.string(), type: z.string(), amount: money, credit_debit_indicator: z.enum(['credit', 'debit']) });
const account = z.object({
  account_id: z.string(),
  currency: z.string(),
  holder: z.object({ name: z.string().optional(), relationship: z.string().optional() }).optional(),
  identifiers: z.record(z.string(), z.string()).optional(),
  balances: z.array(balance).optional(),
});
const categoryModel = z.object({ name: z.string(), description: z.string(), deprecated: z.boolean().optional() });
const labelled = z.object({ name: z.string().optional(), labels: z.array(z.string()).optional() });

export const REFERENCE = {
  token: z.object({
    operation_id: z.string(),
    data: z.object({ access_token: z.string(), token_type: z.string(), expires_in: z.number().int(), refresh_token: z.string() }),
  }),
  bucketTotals: envelope(z.array(totalsGroup), z.object({ date_from: z.string(), date_to: z.string(), group_by: z.array(z.string()), currency: z.string() })),
  accounts: z.object({ operation_id: z.string(), data: z.array(account), metadata: z.object({}).passthrough().optional() }),
  categories: envelope(
    z.union([z.object({ categories: z.array(z.string()).optional(), subcategories: z.array(z.string()).optional() }), z.array(labelled.extend({ subcategories: z.array(labelled).optional() }))]),
    z.object({ model: categoryModel }),
  ),
  categoryModels: z.object({ operation_id: z.string(), data: z.array(categoryModel) }),
  categoryTotals: z.object({
    operation_id: z.string(),
    data: z.array(categoryTotal).nullable(),
    metadata: z.object({ from: z.string(), to: z.string(), credit_total: z.array(currencyTotal).optional(), debit_total: z.array(currencyTotal).optional() }).optional(),
  }),
  refreshStarted: envelope(
    z.object({ task_id: z.string(), provider: z.string() }),
    z.object({ status: taskStatus.optional(), next_url: z.string().optional(), next_url_delay: z.number().optional() }),
  ),
  /** The 202 of an ingestion: only metadata is required, with the task id. */
  ingestAccepted: z.object({ operation_id: z.string(), metadata: z.object({ task_id: uuid, next_url: z.string().optional(), next_url_delay: z.number().optional() }) }),
  ingestStatus: envelope(
    z.array(ingestSubTask),
    z.object({
      task_id: uuid,
      status: z.enum(['Completed', 'Pending', 'Failed', 'PartialCompleted']),
      result: z.string().optional(),
      ingest_route: z.string().optional(),
      ingest_schema: z.enum(['application/bud-accounts+json', 'application/bud-transaction-v2+json', 'application/bud-transaction-v3+json']).optional(),
    }),
  ),
  transactions: envelope(z.array(transaction), transactionsMetadata),
  customerApplication: envelope(customerApplication, applicationMetadata),
  refreshTask: envelope(refreshTask, z.object({ has_new_transactions: z.boolean().optional(), status: taskStatus.optional() })),
  bucketDetail: envelope(bucketDefinition, z.object({}).passthrough()),
  bucketList: envelope(z.array(bucketDefinition.extend({ buckets: z.array(slug) })), z.object({}).passthrough()),
} as const;

export { instant as referenceInstant, money as referenceMoney, slug as referenceSlug };

/** Fails with every place where `body` departs from the reference's shape. */
export function expectReferenceShape<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) expect.fail(`does not match the reference's shape: ${JSON.stringify(parsed.error.issues.slice(0, 8))}`);
  return parsed.data;
}
