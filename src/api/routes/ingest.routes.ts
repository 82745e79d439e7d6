import { overlongTransactions, REJECTED_RESULT, type IngestionService } from '../../tasks/ingestion.js';
import { LIMITS } from '../../domain/event-limits.js';
import { SECRET_MISMATCH_REASON } from '../../domain/secrets.js';
import type { Task, WholeStatus } from '../../tasks/tasks.repository.js';
import { requireClient } from '../auth/context.js';
import type { SecretAttempts } from '../auth/secret-attempts.js';
import { envelope } from '../envelope.js';
import { apiError, validationError } from '../errors.js';
import type { Router } from '../router.js';
import type { ForeignCustomers } from '../services/foreign-customers.js';
import {
  INGEST_CONTENT_TYPES,
  OP_INGEST_STATUS_GET,
  OP_INGEST_TRANSACTIONS_POST,
  V2_CONTENT_TYPE,
  V3_CONTENT_TYPE,
  ingestStatusResponse,
  ingestTaskParams,
  ingestTransactionsBody,
  ingestTransactionsResponse,
  ingestTransactionsV3Body,
  type IngestEntry,
} from '../schemas/ingest.schemas.js';

const TAG = 'First-party ingestion';
const statusUrl = (taskId: string): string => `/ingestion/v3/tasks/${encodeURIComponent(taskId)}`;

type SubTask = ({ customer_id: string } | { customer_idempotent_identifier: string }) & { error?: Record<string, string> };

/** One entry per customer of the request, named as the request named it, with the events of it that were not written. */
function subTasks(task: Task): SubTask[] {
  const ids = Array.isArray(task.detail['customer_ids']) ? (task.detail['customer_ids'] as unknown[]) : [];
  return ids.flatMap((entry): SubTask[] => {
    const e = entry as Record<string, unknown>;
    const error = e['error'] !== null && typeof e['error'] === 'object' ? { error: e['error'] as Record<string, string> } : {};
    if (typeof e['customer_idempotent_identifier'] === 'string') return [{ customer_idempotent_identifier: e['customer_idempotent_identifier'], ...error }];
    return typeof e['customer_id'] === 'string' ? [{ customer_id: e['customer_id'], ...error }] : [];
  });
}

/**
 * A customer's part of a finished task: failed, with the reason of each of
 * its transactions not written, or completed. The task as a whole is
 * partly completed when some of its events were written and some not.
 */
function subTaskStatus(task: Task, sub: SubTask): { status: WholeStatus; result?: string; error?: Record<string, string> } {
  if (sub.error) return { status: 'Failed', result: REJECTED_RESULT, error: sub.error };
  if (task.status === 'Pending') return { status: 'Pending' };
  return { status: 'Completed', result: 'success' };
}

const knownSchema = (value: unknown) => (INGEST_CONTENT_TYPES as readonly unknown[]).includes(value) ? (value as (typeof INGEST_CONTENT_TYPES)[number]) : undefined;


/**
 * With several shards, a request is applied by the shard that owns all its
 * customers, in one transaction: a request naming customers of another
 * shard cannot be applied atomically here, so it is refused whole, naming
 * those customers, and the client splits it by customer.
 */
async function refuseForeign(body: readonly IngestEntry[], foreign: ForeignCustomers | undefined): Promise<void> {
  if (!foreign) return;
  const others = new Set(await foreign(body.map((e) => e.customer_id)));
  if (others.size === 0) return;
  const errors: Record<string, string> = {};
  body.forEach((e, i) => {
    if (others.has(e.customer_id)) errors[`[${i}].${e.customer_key}`] = 'belongs to another shard than the other customers of this request: send each shard\'s customers in a request of their own';
  });
  throw validationError(errors);
}

/**
 * Headers of the reference's ingestion that change what is stored, which
 * afford does not do: refused, since ignoring them would store something
 * else than the client asked for (its own ids kept, where it expected ids
 * made from the content to drop repeats; a customer stored where none was
 * meant). The categorisation model and the synchronous switch change
 * nothing here (afford stores the categories it is sent, and always answers
 * with a task), so they are let through.
 */
const UNSUPPORTED_HEADERS: Record<string, string> = {
  'x-generate-transaction-ids': "is not supported: afford keeps the transaction ids it is sent (send the same id again to replace a transaction)",
  'x-no-customer': 'is not supported: afford stores every transaction under its customer',
};
const HEADER_NAMES: Record<string, string> = { 'x-generate-transaction-ids': 'X-Generate-Transaction-IDs', 'x-no-customer': 'X-No-Customer' };

function refuseUnsupportedHeaders(headers: Record<string, string | string[] | undefined>): void {
  const errors: Record<string, string> = {};
  for (const [name, message] of Object.entries(UNSUPPORTED_HEADERS)) {
    const value = headers[name];
    if (value === undefined) continue;
    // Asking for the reference's default ("false", or nothing) is no request for what afford lacks.
    if ([value].flat().every((v) => ['false', ''].includes(v.trim().toLowerCase()))) continue;
    errors[HEADER_NAMES[name] ?? name] = message;
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * An ingestion body's customer_secret is a try of the secret as much as an
 * X-Customer-Secret header is (a wrong one is named in the task), and counts
 * toward the same lockout (secret-attempts.ts). A request may name a customer
 * in several entries, but with one secret: a thousand entries of one
 * customer with a thousand secrets would be a thousand tries at once, the
 * right one shown by the task. Each customer's try is counted before the
 * write, so that requests sent side by side cannot pass the limit, and
 * cleared when the secret was right; while a customer is locked, a request
 * bringing a secret for it is refused whole with 429.
 */
function countSecretTries(clientId: string, body: readonly IngestEntry[], attempts: SecretAttempts): Map<string, number[]> {
  const tried = new Map<string, { secret: string; entries: number[] }>();
  const errors: Record<string, string> = {};
  body.forEach((entry, i) => {
    if (entry.customer_secret === undefined) return;
    const seen = tried.get(entry.customer_id);
    if (!seen) tried.set(entry.customer_id, { secret: entry.customer_secret, entries: [i] });
    else if (seen.secret === entry.customer_secret) seen.entries.push(i);
    else errors[`[${i}].customer_secret`] = `differs from the one given for the same customer in entry [${seen.entries[0]}]: a request gives a customer one secret`;
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
  for (const customerId of tried.keys()) {
    const locked = attempts.lockedFor(clientId, customerId);
    if (locked > 0) throw apiError('TOO_MANY_ATTEMPTS', { retryAfterSeconds: locked });
  }
  for (const customerId of tried.keys()) attempts.failed(clientId, customerId);
  return new Map([...tried].map(([customerId, t]) => [customerId, t.entries]));
}

/** Clears the count of each customer whose secret the request had right (none of its entries refused for it). */
function clearRightSecrets(clientId: string, tried: ReadonlyMap<string, number[]>, task: Task, attempts: SecretAttempts): void {
  const parts = subTasks(task);
  for (const [customerId, entries] of tried) {
    const wrong = entries.some((i) => Object.values(parts[i]?.error ?? {}).includes(SECRET_MISMATCH_REASON));
    if (!wrong) attempts.succeeded(clientId, customerId);
  }
}

export function ingestRoutes(router: Router, ingestion: IngestionService, attempts: SecretAttempts, foreign?: ForeignCustomers): void {
  router.add({
    method: 'POST',
    url: '/v2/ingest/transactions',
    operationId: OP_INGEST_TRANSACTIONS_POST,
    summary:
      "Push up to 1,000 of the client's transactions, grouped by customer, through the ingest pipeline as a task; the ingestion webhook fires when it is done. " +
      `Bodies: application/json or ${V2_CONTENT_TYPE} (afford's transaction fields, categories optional), or ${V3_CONTENT_TYPE} (the reference's: a signed amount, no categories)`,
    tag: TAG,
    auth: 'client',
    body: ingestTransactionsBody,
    bodies: { [V3_CONTENT_TYPE]: ingestTransactionsV3Body, [V2_CONTENT_TYPE]: ingestTransactionsBody },
    response: ingestTransactionsResponse,
    successStatus: 202,
    handler: async ({ body, auth, request }) => {
      refuseUnsupportedHeaders(request.headers);
      await refuseForeign(body, foreign);
      const clientId = requireClient(auth).clientId;
      // As any source refuses an event over the size limit: refused here, not made a dead letter of a request answered 202.
      const overlong = overlongTransactions(clientId, body);
      if (overlong.length > 0) {
        throw validationError(Object.fromEntries(overlong.map(([i, j]) => [`[${i}].transactions[${j}]`, `makes an event longer than ${LIMITS.rawBytes} bytes`])));
      }
      const tried = countSecretTries(clientId, body, attempts);
      const contentType = knownSchema(request.headers['content-type']?.split(';')[0]?.trim().toLowerCase());
      const task = await ingestion.submit(clientId, body, { contentType });
      clearRightSecrets(clientId, tried, task, attempts);
      // The request has waited for its one transaction, so the status is already final: no wait before reading it.
      return envelope(OP_INGEST_TRANSACTIONS_POST, { task_id: task.taskId, status: task.status }, { task_id: task.taskId, next_url: statusUrl(task.taskId), next_url_delay: 0 });
    },
  });

  router.add({
    method: 'GET',
    url: '/ingestion/v3/tasks/:task_id',
    operationId: OP_INGEST_STATUS_GET,
    summary: 'The status of a first-party ingestion task, per customer of its request',
    tag: TAG,
    auth: 'client',
    params: ingestTaskParams,
    response: ingestStatusResponse,
    handler: async ({ params, auth }) => {
      const task = await ingestion.get(requireClient(auth).clientId, params.task_id);
      if (!task) throw apiError('TASK_NOT_FOUND');
      const result = task.result ?? undefined;
      const schema = knownSchema(task.detail['content_type']);
      return envelope(
        OP_INGEST_STATUS_GET,
        subTasks(task).map((s) => ({ ...s, ...subTaskStatus(task, s) })),
        {
          task_id: task.taskId,
          status: task.status,
          ...(result !== undefined ? { result } : {}),
          ingest_route: OP_INGEST_TRANSACTIONS_POST,
          ...(schema !== undefined ? { ingest_schema: schema } : {}),
        },
      );
    },
  });
}
