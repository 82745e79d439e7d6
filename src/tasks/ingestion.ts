import { randomUUID } from 'node:crypto';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { DeadLetterRecord, RawItem } from '../ingest/types.js';
import { redactDeadLetter } from '../domain/redact.js';
import type { Logger } from '../logger.js';
import { enqueueWebhook } from '../webhooks/outbox.js';
import { ingestionSucceededMessage } from '../webhooks/payloads.js';
import { TasksRepository, taskQueries, type Task } from './tasks.repository.js';
import { affordError } from '../domain/errors.js';
import { rawTooLong } from '../domain/events.js';

/** docs/compatibility.md: at most 1,000 transactions in one request, over all customers. */
export const MAX_INGEST_TRANSACTIONS = 1000;

/** One entry of the POST /v2/ingest/transactions body; the transactions are as received (the API has validated them). */
export interface CustomerTransactions {
  customer_id: string;
  /** Which field of the body named the customer; the task's status names it the same way. */
  customer_key?: 'customer_id' | 'customer_idempotent_identifier';
  /** A non-hosted customer's secret, as an event's customer_secret. */
  customer_secret?: string;
  transactions: readonly unknown[];
}

/** How a request came: its body's content type, kept with the task (the reference's ingest_schema). */
export interface IngestionRequest {
  contentType?: string;
}

/**
 * The raw event of item [i].transactions[j] of a task: deterministic within
 * the task, as event `http:T:iiii:jjjj`. The numbers are written to four
 * digits (a request holds at most 1,000 transactions), so that the ids sort
 * as the items do: every event of a request has one occurred_at, and of two
 * versions of one transaction in it, the later must win.
 */
function rawEvent(taskId: string, occurredAt: string, clientId: string, batch: CustomerTransactions, i: number, j: number): string {
  return JSON.stringify({
    event_id: `http:${taskId}:${String(i).padStart(4, '0')}:${String(j).padStart(4, '0')}`,
    type: 'transaction.upserted',
    occurred_at: occurredAt,
    client_id: clientId,
    customer_id: batch.customer_id,
    ...(batch.customer_secret !== undefined ? { customer_secret: batch.customer_secret } : {}),
    data: batch.transactions[j],
  });
}

/**
 * Where a request's transactions would make events longer than any source
 * may give (`[i, j]`: entry, then transaction), measured as the task writes
 * them: its id and instant always have the same length. The API refuses
 * such a request, as it refuses an invalid transaction, rather than let
 * the event become a dead letter of a request it answered with success.
 */
export function overlongTransactions(clientId: string, batches: readonly CustomerTransactions[]): [number, number][] {
  const over: [number, number][] = [];
  const sameLengthId = randomUUID();
  const sameLengthInstant = new Date().toISOString();
  batches.forEach((batch, i) =>
    batch.transactions.forEach((_, j) => {
      if (rawTooLong(rawEvent(sameLengthId, sameLengthInstant, clientId, batch, i, j))) over.push([i, j]);
    }),
  );
  return over;
}

/**
 * A task's result, and a customer's, when an event of the request was valid
 * in shape yet not written (a customer's secret that does not match, the
 * store's refusal): the reference's code for data that could not be taken.
 */
export const REJECTED_RESULT = 'data_mapping_error';

/**
 * The request's events that became dead letters, by the customer's entry:
 * `transactions[j]` and why, as a failed sub-task of the reference names
 * each error. The reason is kept as a dead letter keeps it, without a
 * secret it may quote.
 */
function rejectedByCustomer(letters: readonly DeadLetterRecord[], places: readonly (readonly [number, number])[]): Map<number, Record<string, string>> {
  const errors = new Map<number, Record<string, string>>();
  for (const letter of letters) {
    const place = places[(letter.ref.lineNumber ?? 0) - 1];
    if (!place) continue;
    const [i, j] = place;
    const forCustomer = errors.get(i) ?? {};
    forCustomer[`transactions[${j}]`] = redactDeadLetter(letter.raw, letter.reason).reason;
    errors.set(i, forCustomer);
  }
  return errors;
}

export interface IngestionDeps {
  pipeline: IngestPipeline;
  logger: Logger;
  onEnqueued?: () => void;
}

/**
 * First-party ingestion: the request's transactions go through the same
 * pipeline as Kafka and files, as `transaction.upserted` events of the
 * caller's client. The rows, the task (Completed) and its webhook commit in
 * one transaction, so the task is never seen done without its data, and its
 * webhook is never lost. The request waits for that one transaction (at most
 * 1,000 rows), then answers with the task.
 */
export class IngestionService {
  private readonly tasks: TasksRepository;
  private readonly log: Logger;

  constructor(private readonly deps: IngestionDeps) {
    this.tasks = new TasksRepository(deps.pipeline.store);
    this.log = deps.logger.child({ component: 'ingestion' });
  }

  /** The client's ingestion task, or undefined (also for another client's task: the two look the same). */
  async get(clientId: string, taskId: string): Promise<Task | undefined> {
    const task = await this.tasks.get(taskId);
    return task && task.clientId === clientId && task.taskType === 'ingestion' ? task : undefined;
  }

  async submit(clientId: string, batches: readonly CustomerTransactions[], request: IngestionRequest = {}): Promise<Task> {
    const taskId = randomUUID();
    // One upstream moment for the whole request: later requests win over this one, replays of it change nothing.
    const occurredAt = new Date().toISOString();
    let position = 0;
    const items: RawItem[] = batches.flatMap((batch, i) =>
      batch.transactions.map((_, j) => ({
        raw: rawEvent(taskId, occurredAt, clientId, batch, i, j),
        ref: { source: 'http' as const, sourceRef: taskId, lineNumber: ++position },
      })),
    );
    // Where each item lies in the request, by its position: entry, then transaction.
    const places = batches.flatMap((batch, i) => batch.transactions.map((_, j) => [i, j] as const));
    const result = await this.deps.pipeline.ingest(items, async (conn, r) => {
      const errors = rejectedByCustomer(r.deadLetters, places);
      const failed = errors.size > 0;
      // As the reference reports a task: failed when none of its events was written, partly completed when some were.
      const status = !failed ? 'Completed' : r.deadLetters.length >= items.length ? 'Failed' : 'PartialCompleted';
      await taskQueries.insert(conn, {
        taskId,
        taskType: 'ingestion',
        clientId,
        customerId: null,
        provider: null,
        status,
        result: failed ? REJECTED_RESULT : 'success',
        step: 1,
        hasNewTransactions: null,
        detail: {
          customers: batches.length,
          transactions: items.length,
          inserted: r.inserted,
          updated: r.updated,
          unchanged: r.skipped,
          rejected: r.deadLetters.length,
          customer_ids: batches.map((b, i) => ({ [b.customer_key ?? 'customer_id']: b.customer_id, ...(errors.has(i) ? { error: errors.get(i) } : {}) })),
          ...(request.contentType !== undefined ? { content_type: request.contentType } : {}),
        },
      });
      await enqueueWebhook(conn, ingestionSucceededMessage(taskId, clientId));
    });
    this.log.info(
      { task_id: taskId, client_id: clientId, transactions: items.length, inserted: result.inserted, updated: result.updated, rejected: result.deadLetters.length },
      'ingestion task completed',
    );
    this.deps.onEnqueued?.();
    const task = await this.tasks.get(taskId);
    if (!task) throw affordError('RECORD_NOT_STORED', 'ingestion task', taskId);
    return task;
  }
}
