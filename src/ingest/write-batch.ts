import { affordError } from '../domain/errors.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from '@duckdb/node-api';
import type { EventType, IngestEvent } from '../domain/events.js';
import { hashSecret, SECRET_MISMATCH_REASON, SECRET_REQUIRED_REASON, verifySecret } from '../domain/secrets.js';
import { dbFromIso, dbTime, microsOf } from '../domain/timestamps.js';
import { queryFile, runScript, runScriptCountingChanges, statements } from '../db/script.js';
import type { Columns } from '../db/rows.js';
import { Stager, stageCustomers, stageDeadLetters, type StageKind, type StagedCustomer } from './stage.js';
import { sqlFile } from '../db/sql-files.js';
import { emptyResult, type BatchResult, type DeadLetterRecord, type PreparedItem } from './types.js';
import { customerKey } from '../domain/customer-ref.js';
import { textAfter } from '../domain/text-order.js';
import type { FastCustomer } from './fast-customers.js';
import { fastCustomers } from './fast-path.js';
import { settleFastRows, type FastRows } from './fast-settle.js';
import { storedRowsLookup, type StoredRowsLookup } from './stored-rows-lookup.js';

interface Version {
  /** Microseconds since 1970, as the store's TIMESTAMP orders them. */
  occurredAt: number;
  eventId: string;
}

/** Whether version `a` is newer than `b`: event ids compared as SQL compares them (fast-settle.sql, the judge). */
const newer = (a: Version, b: Version): boolean => a.occurredAt > b.occurredAt || (a.occurredAt === b.occurredAt && textAfter(a.eventId, b.eventId));

interface Counts {
  inserted: number;
  updated: number;
  deleted: number;
  staged?: number;
}

const COUNT_COLUMNS: Columns<Counts> = { inserted: 'number', updated: 'number', deleted: 'number' };

function tally(result: BatchResult, type: EventType, applied: number, skipped: number): void {
  const o = (result.byType[type] ??= { applied: 0, skipped: 0 });
  o.applied += applied;
  o.skipped += skipped;
  result.skipped += skipped;
}

/** A customer is (client, customer id): two clients may use the same customer id. */

interface CustomerStateRow {
  kind: string;
  client_id: string;
  customer_id: string;
  secret_hash: string | null;
  occurred_at: string | null;
  event_id: string | null;
}

const CUSTOMER_STATE_COLUMNS: Columns<CustomerStateRow> = {
  kind: 'text', client_id: 'text', customer_id: 'text', secret_hash: 'text', occurred_at: 'text', event_id: 'text',
};

/** The stored customer and customer tombstone of each pair, in one read. */
function customerRows(conn: DuckDBConnection, pairs: readonly { client_id: string; customer_id: string }[]): Promise<CustomerStateRow[]> {
  const keys = { client_ids: listValue(pairs.map((e) => e.client_id)), customer_ids: listValue(pairs.map((e) => e.customer_id)) };
  return queryFile<CustomerStateRow>(conn, 'queries/ingest/customer-state', keys, CUSTOMER_STATE_COLUMNS);
}

/** An event handled once per client: two clients may use one event id (016_handled_events_per_client.sql). */
const handledKey = (clientId: string, eventId: string): string => `${clientId.length}:${clientId}:${eventId}`;

/** What the batch knows about its customers before it writes anything: their stored secrets, tombstones and handled events. */
async function loadCustomerState(conn: DuckDBConnection, events: readonly IngestEvent[], more: readonly FastCustomer[]) {
  const sideEffects = events.filter((e) => e.type === 'customer.deleted' || e.type === 'payment.status_updated');
  const known = new Map<string, { secretHash: string | null }>();
  const tombstones = new Map<string, Version>();
  if (events.length === 0 && more.length === 0) return { known, tombstones, handled: new Set<string>() };
  // One pair per customer, not per event: a batch holds thousands of events of a few customers.
  const pairs = new Map<string, { client_id: string; customer_id: string }>([
    ...events.map((e) => [customerKey(e.client_id, e.customer_id), e] as const),
    ...more.map((c) => [customerKey(c.client_id, c.customer_id), c] as const),
  ]);
  for (const r of await customerRows(conn, [...pairs.values()])) {
    const key = customerKey(r.client_id, r.customer_id);
    if (r.kind === 'customer') known.set(key, { secretHash: r.secret_hash });
    else tombstones.set(key, { occurredAt: microsOf(r.occurred_at ?? ''), eventId: r.event_id ?? '' });
  }
  const handled = new Set(
    sideEffects.length
      ? (await queryFile<{ client_id: string; event_id: string }>(conn, 'queries/ingest/handled-events', {
        client_ids: listValue(sideEffects.map((e) => e.client_id)),
        event_ids: listValue(sideEffects.map((e) => e.event_id)),
      }, { client_id: 'text', event_id: 'text' })).map((r) => handledKey(r.client_id, r.event_id))
      : [],
  );
  return { known, tombstones, handled };
}

/** An item of a batch and its position in the batch. */
export interface BatchEntry {
  seq: number;
  item: PreparedItem;
}

/**
 * Writes one batch inside the caller's transaction: rows by the rules of
 * docs/events.md, dead letters, and the monthly totals of every customer-month it
 * touched. A customer deletion splits the batch, so that what came before it
 * is removed with the customer and what came after it is kept.
 */
export async function writeBatch(conn: DuckDBConnection, items: readonly PreparedItem[]): Promise<BatchResult> {
  return writeEntries(conn, items.length, items.map((item, seq) => ({ seq, item })));
}

/**
 * writeBatch for a batch of `read` items of which `entries` were prepared
 * in JavaScript, and the rest staged by the fast path (never with a customer
 * deletion among the entries: the caller sends such a batch to writeBatch).
 */
export async function writeEntries(conn: DuckDBConnection, read: number, entries: readonly BatchEntry[], fastFound?: FastRows): Promise<BatchResult> {
  const result = emptyResult();
  result.read = read;
  // The stage tables exist (see ensureStage) and are empty: every batch clears what it staged before it commits.

  const events = entries.flatMap(({ item }) => (item.kind === 'event' ? [item.event] : []));
  const { known, tombstones, handled } = await loadCustomerState(conn, events, fastFound?.customers ?? []);
  // Customers tallied as the rows were found count every row as newer than a deletion: for a deleted customer, SQL finds which are.
  const deleted = fastFound?.tallied === true && fastFound.customers.some((c) => tombstones.has(customerKey(c.client_id, c.customer_id)));
  const fast = deleted && fastFound ? { ...fastFound, customers: await fastCustomers(conn), tallied: false } : fastFound;
  const lookup = storedRowsLookup(events, fast?.customers ?? [], known);
  const dead: { seq: number; letter: DeadLetterRecord }[] = [];
  // How many of `dead` are in the table already (those before a customer's deletion; see below).
  let deadWritten = 0;
  const touched = new Map<string, { clientId: string; customerId: string }>();
  const kinds = new Set(events.map(stageKindOf).filter((k) => k !== undefined));
  let stager = await Stager.open(conn, kinds);
  let newCustomers: StagedCustomer[] = [];
  // Rows of the fast path still staged, counted with the segment's transactions.
  let fastStaged = fast?.staged ?? 0;

  // Applies what is staged so far; the stage tables are cleared once, after it.
  const flush = async (): Promise<void> => {
    stager.close();
    const used = new Set<string>();
    if (newCustomers.length > 0) {
      await stageCustomers(conn, newCustomers);
      newCustomers = [];
      result.changedRows += await runScriptCountingChanges(conn, 'queries/ingest/apply-customers');
      used.add('stage_customers');
    }
    const staged = { ...stager.staged, transaction: stager.staged.transaction + fastStaged };
    fastStaged = 0;
    await applySegment(conn, result, staged, lookup);
    const { transaction, account, application } = staged;
    if (transaction > 0) ['stage_transactions', 'stored_rowids', 'tx_events', 'batch_months', 'batch_totals'].forEach((t) => used.add(t));
    if (account > 0) ['stage_accounts', 'stage_balances'].forEach((t) => used.add(t));
    if (application > 0) used.add('stage_applications');
    if (result.deadLetters.length > 0) used.add('stage_dead_letters');
    await clearStage(conn, used);
  };

  // A batch repeats a customer's secret in event after event: each pair is hashed once.
  const checked = new Map<string, boolean>();
  const secretMatches = (secret: string, stored: string): boolean => {
    const key = `${stored}\n${secret}`;
    let ok = checked.get(key);
    if (ok === undefined) checked.set(key, (ok = verifySecret(secret, stored)));
    return ok;
  };

  // Customers new to the store that a fast row creates (its first newer than the customer's deletion), and where each new customer was created.
  const fastCreators = new Map((fast?.customers ?? []).filter((c) => c.first_seq !== null).map((c) => [customerKey(c.client_id, c.customer_id), c] as const));
  const createdAt = new Map<string, number>();
  const createFromFast = (key: string, c: FastCustomer): void => {
    fastCreators.delete(key);
    if (known.has(key)) return;
    const secretHash = c.first_secret === null ? null : hashSecret(c.first_secret);
    known.set(key, { secretHash });
    createdAt.set(key, c.first_seq ?? -1);
    newCustomers.push({ customerId: c.customer_id, clientId: c.client_id, hosted: secretHash === null, secretHash });
  };

  for (const { seq, item } of entries) {
    if (item.kind === 'dead') {
      dead.push({ seq, letter: { raw: item.raw, reason: item.reason, ref: item.ref } });
      continue;
    }
    const e = item.event;
    const key = customerKey(e.client_id, e.customer_id);
    const creator = fastCreators.get(key);
    if (creator && (creator.first_seq ?? 0) < seq) createFromFast(key, creator);
    const customer = known.get(key);
    // The first event of a customer fixes its secret; a later one may repeat it or leave it out, never change it. A
    // hosted customer has none: a secret on its events would be ignored, and its data stay readable without it.
    if (customer && e.customer_secret !== undefined && (customer.secretHash === null || !secretMatches(e.customer_secret, customer.secretHash))) {
      dead.push({ seq, letter: { raw: item.raw, reason: SECRET_MISMATCH_REASON, ref: item.ref } });
      continue;
    }
    // Through the API, as the reference API asks, a customer that is not hosted is written only with its secret: the
    // client's credentials alone must not put transactions (an income) into a protected customer. Kafka and files
    // are the lender's own pipelines, whose events may leave the secret out after the first.
    if (customer && customer.secretHash !== null && e.customer_secret === undefined && item.ref.source === 'http') {
      dead.push({ seq, letter: { raw: item.raw, reason: SECRET_REQUIRED_REASON, ref: item.ref } });
      continue;
    }
    const version = { occurredAt: microsOf(e.occurred_at), eventId: e.event_id };
    const tomb = tombstones.get(key);
    if (tomb && !newer(version, tomb)) {
      tally(result, e.type, 0, 1);
      continue;
    }
    if (e.type === 'payment.status_updated' || e.type === 'customer.deleted') {
      if (handled.has(handledKey(e.client_id, e.event_id))) {
        tally(result, e.type, 0, 1);
        continue;
      }
      handled.add(handledKey(e.client_id, e.event_id));
      await runScript(conn, 'queries/ingest/mark-handled', { client_id: e.client_id, event_id: e.event_id, type: e.type, now: dbTime() });
      if (e.type === 'payment.status_updated') {
        result.payments.push({ clientId: e.client_id, customerId: e.customer_id, eventId: e.event_id, payment: e.data });
        result.updated += 1;
        tally(result, e.type, 1, 0);
      } else {
        await flush();
        stager = await Stager.open(conn, kinds);
        // What came before the deletion in the batch is stored before it, as if it had come in a batch before: its
        // dead letters too (written at the end, they outlived it), and its payment notices do not go out.
        deadWritten = await writeDeadLetters(conn, dead, deadWritten);
        const other = (p: { clientId: string; customerId: string }): boolean => p.clientId !== e.client_id || p.customerId !== e.customer_id;
        result.payments = result.payments.filter(other);
        // An earlier deletion of theirs in the batch is superseded, as its notice would be in the outbox (delete-customer).
        result.deletedCustomers = result.deletedCustomers.filter(other);
        const params = { client_id: e.client_id, customer_id: e.customer_id, occurred_at: dbFromIso(e.occurred_at), event_id: e.event_id };
        result.changedRows += await runScriptCountingChanges(conn, 'queries/delete-customer', params);
        // The customer stays, with their secret, while a record newer than the deletion does.
        const kept = (await customerRows(conn, [e])).find((r) => r.kind === 'customer');
        if (kept) known.set(key, { secretHash: kept.secret_hash });
        else known.delete(key);
        tombstones.set(key, version);
        touched.delete(key);
        result.deletedCustomers.push({ clientId: e.client_id, customerId: e.customer_id, eventId: e.event_id, occurredAt: e.occurred_at });
        // Deleting a customer never seen still leaves its tombstone, but changes nothing: unchanged, as for a transaction.
        if (customer) result.deleted += 1;
        tally(result, e.type, customer ? 1 : 0, customer ? 0 : 1);
      }
      continue;
    }
    if (customer === undefined) {
      const secretHash = e.customer_secret === undefined ? null : hashSecret(e.customer_secret);
      known.set(key, { secretHash });
      createdAt.set(key, seq);
      newCustomers.push({ customerId: e.customer_id, clientId: e.client_id, hosted: secretHash === null, secretHash });
    }
    touched.set(key, { clientId: e.client_id, customerId: e.customer_id });
    if (e.type === 'account.upserted') stager.account(seq, e);
    else if (e.type === 'application.upserted') stager.application(seq, e);
    else stager.transaction(seq, e);
  }
  for (const [key, creator] of [...fastCreators]) createFromFast(key, creator);
  if (fast) {
    const skip = (type: EventType): void => tally(result, type, 0, 1);
    fastStaged -= await settleFastRows(conn, fast, { known, tombstones, createdAt, secretMatches, touched, dead, skip, reason: SECRET_MISMATCH_REASON });
  }
  // Dead letters go in with the last segment, so that the stage is cleared once (those before a deletion went in then).
  const rest = dead.slice(deadWritten).sort((a, b) => a.seq - b.seq).map((d) => d.letter);
  await stageDeadLetters(conn, rest);
  if (rest.length > 0) await runScript(conn, 'queries/ingest/apply-dead-letters');
  // In the order of the batch, as the events were read: every one, for the source (a Kafka batch's DLQ) and the counts.
  result.deadLetters = dead.sort((a, b) => a.seq - b.seq).map((d) => d.letter);
  await flush();
  result.touchedCustomers = [...touched.values()];
  // Every event read is accounted for, or the batch does not commit: rows staged and then left out of the write
  // (a miscount of the fast rows did) would otherwise be lost without a trace.
  const accounted = result.inserted + result.updated + result.deleted + result.skipped + result.deadLetters.length;
  if (accounted !== result.read) throw affordError('INGEST_UNACCOUNTED', String(result.read), String(accounted));
  return result;
}


/** Writes the dead letters from `from` on (found so far, in the batch's order) and empties their stage; returns how many are written. */
async function writeDeadLetters(conn: DuckDBConnection, dead: readonly { seq: number; letter: DeadLetterRecord }[], from: number): Promise<number> {
  if (dead.length === from) return from;
  await stageDeadLetters(conn, dead.slice(from).map((d) => d.letter));
  await runScript(conn, 'queries/ingest/apply-dead-letters');
  await clearStage(conn, new Set(['stage_dead_letters']));
  return dead.length;
}

const stageKindOf = (e: IngestEvent): StageKind | undefined =>
  e.type === 'account.upserted' ? 'account' : e.type === 'application.upserted' ? 'application' : e.type.startsWith('transaction.') ? 'transaction' : undefined;

/** Empties the stage tables a segment used (the statements of stage-clear that name them): a DELETE costs a round trip even on an empty table. */
async function clearStage(conn: DuckDBConnection, tables: ReadonlySet<string>): Promise<void> {
  for (const statement of statements(sqlFile('queries/ingest/stage-clear'))) {
    const table = /^DELETE FROM (\w+)/.exec(statement)?.[1];
    if (table === undefined || tables.has(table)) await conn.run(statement);
  }
}

const stageCreated = new WeakSet<DuckDBConnection>();

/**
 * Creates the connection's stage tables, once, outside any transaction: made
 * inside a batch's transaction, they would vanish with its rollback.
 */
export async function ensureStage(conn: DuckDBConnection): Promise<void> {
  if (stageCreated.has(conn)) return;
  await runScript(conn, 'queries/ingest/stage-create');
  stageCreated.add(conn);
}

async function applySegment(conn: DuckDBConnection, result: BatchResult, staged: Stager['staged'], lookup: StoredRowsLookup): Promise<void> {
  if (staged.transaction > 0) await applyTransactions(conn, result, lookup);
  for (const [kind, type] of [['account', 'account.upserted'], ['application', 'application.upserted']] as const) {
    if (staged[kind] === 0) continue;
    result.changedRows += await runScriptCountingChanges(conn, `queries/ingest/apply-${kind}s`);
    const [c] = await queryFile<Counts>(conn, `queries/ingest/count-${kind}-outcomes`, {}, { ...COUNT_COLUMNS, staged: 'number' });
    if (c) {
      result.inserted += c.inserted;
      result.updated += c.updated;
      tally(result, type, c.inserted + c.updated, (c.staged ?? 0) - c.inserted - c.updated);
    }
  }
}

interface TransactionOutcomes extends Counts {
  staged_upserts: number;
  staged_deletes: number;
  replaced_rows: number;
  replaced_tombstones: number;
  new_tombstones: number;
}

const TRANSACTION_OUTCOMES: Columns<TransactionOutcomes> = {
  ...COUNT_COLUMNS,
  staged_upserts: 'number',
  staged_deletes: 'number',
  replaced_rows: 'number',
  replaced_tombstones: 'number',
  new_tombstones: 'number',
};

/**
 * Judges the staged transaction events, replaces the stored rows, then
 * recomputes the monthly totals of the customer-months they touch: the steps
 * that would find nothing to do (no stored row replaced, no deletion) are
 * skipped.
 */
async function applyTransactions(conn: DuckDBConnection, result: BatchResult, lookup: StoredRowsLookup): Promise<void> {
  await runScript(conn, lookup);
  await runScript(conn, 'queries/ingest/judge-transactions');
  const [tx] = await queryFile<TransactionOutcomes>(conn, 'queries/ingest/count-transaction-outcomes', {}, TRANSACTION_OUTCOMES);
  if (!tx) return;
  result.inserted += tx.inserted;
  result.updated += tx.updated;
  result.deleted += tx.deleted;
  tally(result, 'transaction.upserted', tx.inserted + tx.updated, tx.staged_upserts - tx.inserted - tx.updated);
  tally(result, 'transaction.deleted', tx.deleted, tx.staged_deletes - tx.deleted);
  if (tx.replaced_rows > 0) result.changedRows += await runScriptCountingChanges(conn, 'queries/ingest/remove-replaced-transactions');
  if (tx.replaced_tombstones > 0) result.changedRows += await runScriptCountingChanges(conn, 'queries/ingest/remove-replaced-tombstones');
  await runScript(conn, 'queries/ingest/insert-transactions');
  if (tx.new_tombstones > 0) await runScript(conn, 'queries/ingest/insert-tombstones');
  if (tx.new_tombstones > 0 || tx.replaced_tombstones > 0) result.changedRows += await runScriptCountingChanges(conn, 'queries/ingest/record-deletions');
  result.changedRows += await runScriptCountingChanges(conn, 'queries/ingest/rematerialise-months');
}
