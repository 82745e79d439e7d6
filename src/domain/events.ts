import { z } from 'zod';
import { LIMITS, nestsDeeperThan } from './event-limits.js';
import { boundedText, codeText, customerSecretText, freeText, headerIdText, idText, keptAsSent } from './text-schemas.js';
import { isoInstant, occurredAt } from './instant-schemas.js';
import { isKnownCurrency, UNKNOWN_CURRENCY_MESSAGE } from './currencies.js';
import { AMOUNT_PATTERN, isPositiveAmount, MAX_AMOUNT, SIGNED_AMOUNT_PATTERN } from './amount-text.js';
import { hasPair, UK_V2 } from './taxonomy.js';

export { isoInstant } from './instant-schemas.js';

// The same list the API checks its currency parameter against: data in a code it would refuse could never be read.
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code').refine(isKnownCurrency, UNKNOWN_CURRENCY_MESSAGE);
const id = idText;
const amountText = z.string().max(20, `must be at most ${MAX_AMOUNT}`);

/** A transaction amount: above zero, as the direction is its own field. */
export const moneySchema = z.object({
  value: amountText
    .regex(AMOUNT_PATTERN, `must be a decimal string with at most 2 decimals, at most ${MAX_AMOUNT}`)
    .refine(isPositiveAmount, 'must be greater than 0'),
  currency: currencyCode,
});

/** A balance: zero is a real balance, so only the sign is ruled out (the indicator gives it). */
const balanceMoney = z.object({
  value: amountText.regex(AMOUNT_PATTERN, `must be a decimal string with at most 2 decimals, at most ${MAX_AMOUNT}`),
  currency: currencyCode,
});

const slugWithConfidence = z.object({
  slug: codeText.min(1),
  confidence: z.union([codeText, z.number()]).transform(String).optional(),
});

export const transactionSchema = z
  .object({
    transaction_id: id,
    account_id: id,
    provider: freeText.default(''),
    description: boundedText(LIMITS.description).default(''),
    credit_debit_indicator: z.enum(['credit', 'debit']),
    amount: moneySchema,
    date_time: isoInstant,
    status: z.enum(['booked', 'pending', 'declined']).default('booked'),
    enrichments: z.object({
      categories: z.object({ l1: slugWithConfidence, l2: slugWithConfidence }),
      regularity: z
        .object({
          frequency: z.enum(['unknown', 'daily', 'weekly', 'biweekly', 'monthly', 'quarterly']).or(codeText),
          predicted_date_times: z.array(isoInstant).max(LIMITS.predictedDates, `must hold at most ${LIMITS.predictedDates} dates`).default([]),
          group_label: freeText.optional(),
        })
        .optional(),
      // Kept as it comes, fields of its own included (stored as JSON): every text in it must be well-formed
      // UTF-16, as DuckDB's JSON refuses a lone surrogate, which made the store reject the whole event.
      merchant: keptAsSent(z.object({ display_name: freeText }).passthrough()).optional(),
    }),
    tags: z.array(freeText).max(LIMITS.tags, `must hold at most ${LIMITS.tags} tags`).default([]),
    posted_date_time: isoInstant.optional(),
    value_date_time: isoInstant.optional(),
    merchant_category_code: codeText.optional(),
    counterparty: z.object({ name: freeText.optional(), identifier: freeText.optional() }).optional(),
    running_balance: z
      .object({
        value: amountText.regex(SIGNED_AMOUNT_PATTERN, `must be a decimal string with at most 2 decimals, from -${MAX_AMOUNT} to ${MAX_AMOUNT}`),
        currency: currencyCode,
      })
      .optional(),
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
  amount: balanceMoney,
  type: codeText.min(1),
  credit_debit_indicator: z.enum(['credit', 'debit']),
});

export const accountSchema = z.object({
  account_id: id,
  currency: currencyCode,
  holder: z.object({ name: freeText, relationship: codeText }),
  account_name: freeText.default(''),
  account_type: codeText.min(1),
  usage_type: codeText.default('personal'),
  provider: freeText.default(''),
  identifiers: z.object({ uk_account_number: codeText.optional(), uk_sort_code: codeText.optional() }).default({}),
  balances: z.array(balanceSchema).max(LIMITS.balances, `must hold at most ${LIMITS.balances} balances`).default([]),
});

const applicant = z.object({ first_name: freeText, last_name: freeText });

export const applicationSchema = z.object({
  application_id: id,
  customer_id: id.optional(),
  creation_date: isoInstant,
  deletion_date: isoInstant.nullable().optional(),
  assessment_date: isoInstant.nullable().optional(),
  accounts_connected: z.number().int().nonnegative().max(LIMITS.accountsConnected).default(0),
  // Kept as they come, fields of their own included (stored as JSON), as the merchant is.
  metadata: keptAsSent(z.object({ account_connection_initiator: freeText.optional(), application_id: freeText.optional() }).passthrough()).default({}),
  primary_applicant: applicant,
  secondary_applicants: z
    .array(keptAsSent(applicant.passthrough()))
    .max(LIMITS.secondaryApplicants, `must hold at most ${LIMITS.secondaryApplicants} applicants`)
    .nullable()
    .default(null),
  initiator_id: freeText.default(''),
  customer_link: z
    .object({
      created_at: isoInstant,
      url: freeText,
      finished_connecting_accounts: z.boolean(),
      expired: z.boolean(),
      status: codeText,
    })
    .optional(),
  review_status: codeText.default('pending'),
  assignee: freeText.default(''),
});

export const paymentSchema = z.object({
  payment_id: id,
  service: codeText.min(1),
  user_id: freeText,
  event: codeText.min(1),
  kind: z.enum(['single', 'standing_order', 'scheduled']),
});

const envelopeBase = {
  event_id: id,
  occurred_at: occurredAt,
  client_id: headerIdText,
  customer_id: headerIdText,
  customer_secret: customerSecretText.optional(),
};

export const eventSchema = z.discriminatedUnion('type', [
  z.object({ ...envelopeBase, type: z.literal('transaction.upserted'), data: transactionSchema }),
  z.object({ ...envelopeBase, type: z.literal('transaction.deleted'), data: z.object({ transaction_id: id }) }),
  z.object({ ...envelopeBase, type: z.literal('account.upserted'), data: accountSchema }),
  z.object({ ...envelopeBase, type: z.literal('application.upserted'), data: applicationSchema }),
  // Any id a customer may have been stored under, one that no header can name included (stored before ids had to
  // be): a deletion must be able to remove them.
  z.object({ ...envelopeBase, client_id: id, customer_id: id, type: z.literal('customer.deleted'), data: z.object({}).passthrough().default({}) }),
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

/** Whether a raw event is over the size limit (in UTF-8 bytes, as it was read). */
export const rawTooLong = (raw: string): boolean => raw.length > LIMITS.rawBytes || Buffer.byteLength(raw, 'utf8') > LIMITS.rawBytes;
export const RAW_TOO_LONG_REASON = `the event is longer than ${LIMITS.rawBytes} bytes`;

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}...` : text);

/**
 * Parses one raw event (JSON text); never throws. The reason names the
 * offending fields. The size and the nesting are checked before the schema
 * runs, so that no input can make validation itself fail.
 */
export function parseEvent(raw: string): ParseResult {
  if (rawTooLong(raw)) return { ok: false, reason: RAW_TOO_LONG_REASON };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { ok: false, reason: clip(`invalid JSON: ${(err as Error).message}`, LIMITS.issueChars) };
  }
  if (nestsDeeperThan(json, LIMITS.jsonDepth)) return { ok: false, reason: `(root): nests deeper than ${LIMITS.jsonDepth} levels` };
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

/** At most LIMITS.reasonIssues field errors, each clipped, so that a reason stays small whatever the input. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, LIMITS.reasonIssues)
    .map((i) => clip(`${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`, LIMITS.issueChars));
  const more = issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}
