import { z } from 'zod';
import { AMOUNT_PATTERN } from './money.js';
import { hasPair, UK_V2 } from './taxonomy.js';

/** ISO 8601 with a zone (Z or an offset); normalised to UTC `...Z`. */
export const isoInstant = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)), {
    message: 'must be an ISO 8601 timestamp with a time zone',
  })
  .transform((s) => new Date(s).toISOString());

const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code');
const id = z.string().min(1, 'is required').max(200, 'must be at most 200 characters');

export const moneySchema = z.object({
  value: z.string().regex(AMOUNT_PATTERN, 'must be a positive decimal string with at most 2 decimals'),
  currency: currencyCode,
});

const slugWithConfidence = z.object({
  slug: z.string().min(1),
  confidence: z.union([z.string(), z.number()]).transform(String).optional(),
});

export const transactionSchema = z
  .object({
    transaction_id: id,
    account_id: id,
    provider: z.string().default(''),
    description: z.string().default(''),
    credit_debit_indicator: z.enum(['credit', 'debit']),
    amount: moneySchema,
    date_time: isoInstant,
    status: z.enum(['booked', 'pending', 'declined']).default('booked'),
    enrichments: z.object({
      categories: z.object({ l1: slugWithConfidence, l2: slugWithConfidence }),
      regularity: z
        .object({
          frequency: z.enum(['unknown', 'daily', 'weekly', 'biweekly', 'monthly', 'quarterly']).or(z.string()),
          predicted_date_times: z.array(isoInstant).default([]),
          group_label: z.string().optional(),
        })
        .optional(),
      merchant: z.object({ display_name: z.string() }).passthrough().optional(),
    }),
    tags: z.array(z.string()).default([]),
    posted_date_time: isoInstant.optional(),
    value_date_time: isoInstant.optional(),
    merchant_category_code: z.string().optional(),
    counterparty: z.object({ name: z.string().optional(), identifier: z.string().optional() }).optional(),
    running_balance: z.object({ value: z.string().regex(/^-?\d+(\.\d{1,2})?$/), currency: currencyCode }).optional(),
  })
  .superRefine((t, ctx) => {
    const l1 = t.enrichments.categories.l1.slug;
    const l2 = t.enrichments.categories.l2.slug;
    if (!hasPair(UK_V2, l1, l2)) {
      ctx.addIssue({ code: 'custom', path: ['enrichments', 'categories'], message: `unknown uk-v2 category pair '${l1}/${l2}'` });
    }
  });

export const balanceSchema = z.object({
  date: isoInstant,
  amount: moneySchema,
  type: z.string().min(1),
  credit_debit_indicator: z.enum(['credit', 'debit']),
});

export const accountSchema = z.object({
  account_id: id,
  currency: currencyCode,
  holder: z.object({ name: z.string(), relationship: z.string() }),
  account_name: z.string().default(''),
  account_type: z.string().min(1),
  usage_type: z.string().default('personal'),
  provider: z.string().default(''),
  identifiers: z.object({ uk_account_number: z.string().optional(), uk_sort_code: z.string().optional() }).default({}),
  balances: z.array(balanceSchema).default([]),
});

export const applicationSchema = z.object({
  application_id: id,
  customer_id: id.optional(),
  creation_date: isoInstant,
  deletion_date: isoInstant.nullable().optional(),
  assessment_date: isoInstant.nullable().optional(),
  accounts_connected: z.number().int().nonnegative().default(0),
  metadata: z.object({ account_connection_initiator: z.string().optional(), application_id: z.string().optional() }).passthrough().default({}),
  primary_applicant: z.object({ first_name: z.string(), last_name: z.string() }),
  secondary_applicants: z.array(z.object({ first_name: z.string(), last_name: z.string() }).passthrough()).nullable().default(null),
  initiator_id: z.string().default(''),
  customer_link: z
    .object({
      created_at: isoInstant,
      url: z.string(),
      finished_connecting_accounts: z.boolean(),
      expired: z.boolean(),
      status: z.string(),
    })
    .optional(),
  review_status: z.string().default('pending'),
  assignee: z.string().default(''),
});

export const paymentSchema = z.object({
  payment_id: id,
  service: z.string().min(1),
  user_id: z.string(),
  event: z.string().min(1),
  kind: z.enum(['single', 'standing_order', 'scheduled']),
});

const envelopeBase = {
  event_id: id,
  occurred_at: isoInstant,
  client_id: id,
  customer_id: id,
  customer_secret: z.string().min(1).max(500).optional(),
};

export const eventSchema = z.discriminatedUnion('type', [
  z.object({ ...envelopeBase, type: z.literal('transaction.upserted'), data: transactionSchema }),
  z.object({ ...envelopeBase, type: z.literal('transaction.deleted'), data: z.object({ transaction_id: id }) }),
  z.object({ ...envelopeBase, type: z.literal('account.upserted'), data: accountSchema }),
  z.object({ ...envelopeBase, type: z.literal('application.upserted'), data: applicationSchema }),
  z.object({ ...envelopeBase, type: z.literal('customer.deleted'), data: z.object({}).passthrough().default({}) }),
  z.object({ ...envelopeBase, type: z.literal('payment.status_updated'), data: paymentSchema }),
]);

export type IngestEvent = z.infer<typeof eventSchema>;
export type EventType = IngestEvent['type'];
export type TransactionData = z.infer<typeof transactionSchema>;
export type AccountData = z.infer<typeof accountSchema>;
export type ApplicationData = z.infer<typeof applicationSchema>;
export type PaymentData = z.infer<typeof paymentSchema>;

export const EVENT_TYPES: readonly EventType[] = [
  'transaction.upserted', 'transaction.deleted', 'account.upserted', 'application.upserted', 'customer.deleted', 'payment.status_updated',
];

export type ParseResult = { ok: true; event: IngestEvent } | { ok: false; reason: string };

/** Parses one raw event (JSON text); never throws. The reason names the offending fields. */
export function parseEvent(raw: string): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${(err as Error).message}` };
  }
  const parsed = eventSchema.safeParse(json);
  if (parsed.success) {
    const event = parsed.data;
    if (event.type === 'application.upserted' && event.data.customer_id && event.data.customer_id !== event.customer_id) {
      return { ok: false, reason: 'data.customer_id: does not match the envelope customer_id' };
    }
    return { ok: true, event };
  }
  return { ok: false, reason: formatIssues(parsed.error.issues) };
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
