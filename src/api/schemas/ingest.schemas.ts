import { z } from 'zod';
import { idText, LIMITS, nestsDeeperThan } from '../../domain/event-limits.js';
import { transactionSchema } from '../../domain/events.js';
import { MAX_INGEST_TRANSACTIONS } from '../../tasks/ingestion.js';
import { emptyObject, envelopeOf } from './common.js';

export const OP_INGEST_TRANSACTIONS_POST = 'v2_ingest_transactions_post';

const customerId = idText;

/** A transaction sits two levels deeper in the body than in its event: the event's nesting limit, measured from the body. */
const MAX_BODY_DEPTH = LIMITS.jsonDepth + 2;

/** The limit is checked on the shape alone, before any transaction is validated, and names the first item over it. */
const withinLimit = z
  .array(z.object({ customer_id: z.unknown(), transactions: z.array(z.unknown()) }).passthrough())
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

/**
 * The nesting is checked first, without recursion, so that no body can make
 * validation itself fail; then the count, then each transaction.
 */
export const ingestTransactionsBody = z.preprocess(
  (body, ctx) => {
    if (nestsDeeperThan(body, MAX_BODY_DEPTH)) ctx.issues.push({ code: 'custom', message: `nests deeper than ${MAX_BODY_DEPTH} levels`, input: body });
    return body;
  },
  withinLimit.pipe(
    z.array(z.object({ customer_id: customerId, transactions: z.array(transactionSchema).min(1, 'must hold at least one transaction') })),
  ),
);

export const ingestTransactionsResponse = envelopeOf(
  OP_INGEST_TRANSACTIONS_POST,
  z.object({ task_id: z.string(), status: z.enum(['Pending', 'Completed', 'Failed']) }),
  emptyObject,
);
