import { z } from 'zod';
import { LIMITS, nestsDeeperThan } from '../../domain/event-limits.js';
import { customerSecretText, headerIdText } from '../../domain/text-schemas.js';
import type { TransactionData } from '../../domain/events.js';
import { MAX_INGEST_TRANSACTIONS } from '../../tasks/ingestion.js';
import { envelopeOf } from './common.js';
import { nativeTransaction, v3Transaction } from './ingest-v3.js';

export const OP_INGEST_TRANSACTIONS_POST = 'v2_ingest_transactions_post';
export const OP_INGEST_STATUS_GET = 'v3_ingest_status_get';

/** The reference's content types of the body: v3 (signed amounts, no categories) and v2 (afford's own shape). */
export const V3_CONTENT_TYPE = 'application/bud-transaction-v3+json';
export const V2_CONTENT_TYPE = 'application/bud-transaction-v2+json';
export const INGEST_CONTENT_TYPES = [V3_CONTENT_TYPE, V2_CONTENT_TYPE] as const;

/** A transaction sits two levels deeper in the body than in its event: the event's nesting limit, measured from the body. */
const MAX_BODY_DEPTH = LIMITS.jsonDepth + 2;

/**
 * How many entries a body may hold, counted before any is looked at: each
 * holds at least one transaction, so a body of more is over the limit
 * whatever they hold. Validated entry by entry, 2.7 million empty entries
 * (an 8 MB body) held the event loop for some 7 s to say so.
 */
const entriesWithinLimit = z
  .array(z.unknown())
  .max(MAX_INGEST_TRANSACTIONS, `must hold at most ${MAX_INGEST_TRANSACTIONS} customers: each holds at least one transaction, and at most ${MAX_INGEST_TRANSACTIONS} transactions are accepted in one request`);

/** The limit is checked on the shape alone, before any transaction is validated, and names the first item over it. */
const withinLimit = z
  .array(z.object({ transactions: z.array(z.unknown()) }).passthrough())
  .min(1, 'must hold at least one customer')
  .superRefine((entries, ctx) => {
    let seen = 0;
    for (const [i, entry] of entries.entries()) {
      if (seen + entry.transactions.length > MAX_INGEST_TRANSACTIONS) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'transactions', MAX_INGEST_TRANSACTIONS - seen],
          message: `is transaction ${MAX_INGEST_TRANSACTIONS + 1}: at most ${MAX_INGEST_TRANSACTIONS} transactions are accepted in one request`,
        });
        return;
      }
      seen += entry.transactions.length;
    }
  });

/** Which field named the customer: the reference's status answer names it the same way. */
export type CustomerKey = 'customer_id' | 'customer_idempotent_identifier';

export interface IngestEntry {
  customer_id: string;
  customer_key: CustomerKey;
  customer_secret?: string;
  transactions: TransactionData[];
}

const NOT_SUPPORTED_WINDOWS = 'is not supported: afford clears no transactions by window; delete them with transaction.deleted events';

/**
 * One customer's entry. The customer is named by `customer_id` or, as the
 * reference allows, by `customer_idempotent_identifier` (the client's own
 * id for the customer, which is what afford's customer ids are); exactly
 * one of them. `sync_enrichments` is accepted and has no effect: afford
 * answers every ingestion as a task (202).
 */
function entrySchema(transaction: typeof nativeTransaction) {
  return z
    .object({
      // Ids an HTTP header can name, as the event schema requires: refused here, rather than answered 202 and then
      // failed in the task.
      customer_id: headerIdText.optional(),
      customer_idempotent_identifier: headerIdText.optional(),
      customer_secret: customerSecretText.optional(),
      transactions: z.array(transaction).min(1, 'must hold at least one transaction'),
      transaction_windows: z.unknown().refine((v) => v === undefined, NOT_SUPPORTED_WINDOWS).optional(),
      sync_enrichments: z.unknown().optional(),
    })
    .superRefine((e, ctx) => {
      if (e.customer_id === undefined && e.customer_idempotent_identifier === undefined) ctx.addIssue({ code: 'custom', path: ['customer_id'], message: 'is required' });
      if (e.customer_id !== undefined && e.customer_idempotent_identifier !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['customer_idempotent_identifier'], message: 'cannot be combined with customer_id' });
      }
      // Checked even when a transaction has failed, so that one answer names every offending field.
    }, { when: () => true })
    .transform(
      (e): IngestEntry => ({
        customer_id: e.customer_id ?? e.customer_idempotent_identifier ?? '',
        customer_key: e.customer_id !== undefined ? 'customer_id' : 'customer_idempotent_identifier',
        ...(e.customer_secret !== undefined ? { customer_secret: e.customer_secret } : {}),
        transactions: e.transactions,
      }),
    );
}

/**
 * The nesting is checked first, without recursion, so that no body can make
 * validation itself fail; then the count, then each transaction.
 */
function bodyOf(transaction: typeof nativeTransaction) {
  return z.preprocess(
    (body, ctx) => {
      if (nestsDeeperThan(body, MAX_BODY_DEPTH)) ctx.issues.push({ code: 'custom', message: `nests deeper than ${MAX_BODY_DEPTH} levels`, input: body });
      return body;
    },
    entriesWithinLimit.pipe(withinLimit).pipe(z.array(entrySchema(transaction))),
  );
}

/** afford's own body (application/json and the reference's v2 type): event-shaped transactions, categories optional. */
export const ingestTransactionsBody = bodyOf(nativeTransaction);
/** The reference's v3 body. */
export const ingestTransactionsV3Body = bodyOf(v3Transaction);

const taskStatus = z.enum(['Pending', 'Completed', 'Failed']);
/** A whole task's status: PartialCompleted when some of its events were written and some not. */
const overallStatus = z.enum(['Pending', 'Completed', 'PartialCompleted', 'Failed']);

export const ingestTransactionsResponse = envelopeOf(
  OP_INGEST_TRANSACTIONS_POST,
  z.object({ task_id: z.string(), status: overallStatus }),
  /** As the reference: the task id, and where and when (milliseconds) to read its status. */
  z.object({ task_id: z.string(), next_url: z.string(), next_url_delay: z.number().int().nonnegative() }),
);

export const ingestTaskParams = z.object({ task_id: z.string().min(1, 'is required').max(200, 'must be at most 200 characters') });

/** A customer's part of the task; a failed one names each of its transactions not written, and why (`transactions[j]`). */
const subTaskError = z.record(z.string(), z.string()).optional();
const subTask = z.union([
  z.object({ customer_id: z.string(), status: taskStatus, result: z.string().optional(), error: subTaskError }),
  z.object({ customer_idempotent_identifier: z.string(), status: taskStatus, result: z.string().optional(), error: subTaskError }),
]);

export const ingestStatusResponse = envelopeOf(
  OP_INGEST_STATUS_GET,
  z.array(subTask),
  z.object({
    task_id: z.string(),
    status: overallStatus,
    result: z.string().optional(),
    ingest_route: z.literal(OP_INGEST_TRANSACTIONS_POST),
    ingest_schema: z.enum(INGEST_CONTENT_TYPES).optional(),
  }),
);
