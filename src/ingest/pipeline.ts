import type { DuckDBConnection } from '@duckdb/node-api';
import type { Store } from '../db/store.js';
import type { Logger } from '../logger.js';
import { isolateRejected, storeRejectionReason } from './isolate.js';
import { prepareItems } from './prepare.js';
import { ensureStage, writeBatch } from './write-batch.js';
import { writeFastBatch } from './write-fast-batch.js';
import type { FoundRows } from './fast-rows.js';
import { fastValidator, type RowStream } from './fast-validator.js';
import type { BatchResult, PreparedItem, RawItem, SourceRef } from './types.js';
import { affordError, errorCode } from '../domain/errors.js';

/** Runs inside the batch's transaction, after its rows are written: offsets, outbox entries. */
export type BatchHook = (conn: DuckDBConnection, result: BatchResult) => Promise<void>;
/** Which source a committed batch came from, and how long it took. */
export interface CommittedBatch {
  source: SourceRef['source'] | 'none';
  seconds: number;
}
/** Runs after the batch has committed: metrics, notifications. */
export type CommitListener = (result: BatchResult, batch: CommittedBatch) => void;

/**
 * Listeners of every pipeline over a store, whoever built the pipeline: a
 * file ingest that the service runs for a CLI caller builds its own, and
 * must still be counted.
 */
const storeListeners = new WeakMap<Store, CommitListener[]>();

export function onEveryCommit(store: Store, listener: CommitListener): void {
  storeListeners.set(store, [...(storeListeners.get(store) ?? []), listener]);
}

/**
 * Batches of fewer events than this are validated in JavaScript: the fast
 * path's fixed cost (a dozen statements) is worth paying only for more
 * (measured: about 70 ms more a transaction of 400 events).
 */
export const FAST_PATH_MIN_ROWS = 2000;

/** More events than this rejected by the store one after another, none accepted between them, means the store is at fault, not the events. */
const MAX_REJECTED_IN_A_ROW = 10;

/**
 * What every pipeline is built with. Ingest cannot import the webhooks layer,
 * so the composition root builds these and hands them in: a pipeline without
 * its webhook hook cannot be constructed, and no source can drop webhooks by
 * forgetting to attach them.
 */
export interface PipelineHooks {
  /** In the batch's transaction: enqueues the webhooks of its deletions and payments. */
  webhooks: BatchHook;
  /** After commit: tells a delivery worker that there is something to send. */
  afterCommit: CommitListener;
}

/** Of these customers, the ones another shard owns (customer-shard.ts); none when there is one. */
export type OwnedElsewhere = (customerIds: readonly string[]) => Promise<string[]>;

/** The reason of a dead letter whose customer another shard owns. */
export const FOREIGN_CUSTOMER_REASON = 'customer_id: belongs to another shard; a Kafka message must be keyed by its event\'s customer_id';

/**
 * The one path into the store for files, Kafka and HTTP: validate, then write
 * the batch, its dead letters, its monthly totals and whatever the source
 * adds, in one transaction.
 */
export class IngestPipeline {
  private readonly hooks: readonly BatchHook[];
  private readonly listeners: readonly CommitListener[];
  private elsewhere: OwnedElsewhere | undefined;

  constructor(
    readonly store: Store,
    private readonly logger: Logger,
    hooks: PipelineHooks,
  ) {
    this.hooks = [hooks.webhooks];
    this.listeners = [hooks.afterCommit];
  }

  /**
   * Writes the batch: from FAST_PATH_MIN_ROWS events up, the plain
   * transaction events are checked by hand on the fast path's worker thread
   * (`found`, when the source asked for them ahead; see rowsAhead) and
   * staged in bulk (write-fast-batch.ts), and only the rest go through the
   * schema. When
   * the store rejects an event that passed validation (a value SQL cannot
   * hold), the batch is validated whole in JavaScript, the event at fault is
   * found by trial writes that are rolled back, and becomes a dead letter
   * with the store's error as its reason; the batch then commits once, hooks
   * included, so that a source's offsets or task are written exactly once.
   */
  async ingest(items: readonly RawItem[], sourceHook?: BatchHook, found?: Promise<FoundRows>): Promise<BatchResult> {
    // A small batch (a steady Kafka stream's, an HTTP request's) is validated sooner than the fast path's statements run.
    if (items.length < FAST_PATH_MIN_ROWS) return this.ingestPrepared(prepareItems(items), sourceHook);
    const started = Date.now();
    let result: BatchResult;
    // Found before the transaction begins, so that it never stands open waiting for them; this thread helps meanwhile.
    const rows = await fastValidator.helpUntil(found ?? fastValidator.rows(items));
    let slow: PreparedItem[] | undefined;
    if (this.elsewhere) {
      // With shards: a fast row of a customer another shard owns sends the batch down the schema path, which refuses it.
      const fastIds = rows.customers?.map((c) => c.customer_id);
      slow = prepareItems(rows.slow.map((seq) => items[seq] as RawItem));
      const others = new Set(await this.elsewhere([...(fastIds ?? []), ...slow.flatMap((p) => (p.kind === 'event' ? [p.event.customer_id] : []))]));
      if (fastIds === undefined || fastIds.some((id) => others.has(id))) return this.ingestPrepared(prepareItems(items), sourceHook);
      if (others.size > 0) slow = refuseForeign(slow, others);
    }
    try {
      // The plain transaction events the hand-written check takes are staged as they are; the schema sees the rest.
      const prepared = slow;
      result = await this.commit((conn) => writeFastBatch(conn, items, rows, prepared), sourceHook);
    } catch (err) {
      // The DLQ is out of reach: trying again now would only wait on the brokers again.
      if (errorCode(err) === 'DLQ_PUBLISH_FAILED') throw err;
      // Said, so that a fault of the fast path itself is seen rather than hidden by the schema path's answer.
      this.logger.warn({ err, items: items.length }, 'the fast path could not write the batch; it is written again with every event validated');
      // Every event validated in JavaScript, so that trial writes can find the one the store rejects.
      return this.ingestPrepared(prepareItems(items), sourceHook);
    }
    this.committed(result, items[0]?.ref.source ?? 'none', started);
    return result;
  }

  /**
   * With several shards: every event of a customer another shard owns
   * becomes a dead letter, whatever the source (a Kafka message keyed by
   * something else than its customer id lands on this shard's partitions,
   * but the front sends that customer's calls to the other shard).
   */
  ownedElsewhere(check: OwnedElsewhere): void {
    this.elsewhere = check;
  }

  /**
   * Starts finding the fast rows of the batch that `ingest` will be given
   * next, on the fast path's worker thread, while the batch before it is
   * written: a source that reads batches of up to `batchRows` items hands
   * each item over as it reads it, and the batch's rows (`end`) to
   * `ingest`. Undefined when batches that size are never large enough for
   * the fast path.
   */
  rowsAhead(batchRows: number): RowStream | undefined {
    return batchRows >= FAST_PATH_MIN_ROWS ? fastValidator.stream() : undefined;
  }

  /**
   * Creates the writer connection's stage tables now, rather than in the
   * first batch. A consumer calls it before it joins its group: made while
   * the client decodes the rest of a backlog on the same thread, they took
   * some 70 ms (twenty statements, each waiting its turn on the thread)
   * against 10 ms.
   */
  async prepare(): Promise<void> {
    fastValidator.warm();
    await this.store.writeUntransacted(ensureStage);
  }

  /**
   * `ingest` for items validated in JavaScript (prepareItems), one by one:
   * small batches, and any batch the store rejects an event of.
   */
  async ingestPrepared(items: readonly PreparedItem[], sourceHook?: BatchHook): Promise<BatchResult> {
    let prepared = items;
    if (this.elsewhere) {
      const others = new Set(await this.elsewhere(items.flatMap((p) => (p.kind === 'event' ? [p.event.customer_id] : []))));
      if (others.size > 0) prepared = refuseForeign(items, others);
    }
    const started = Date.now();
    let rejectedInARow = 0;
    let knownGood = 0;
    for (;;) {
      try {
        const batch = prepared;
        const result = await this.commit((conn) => writeBatch(conn, batch), sourceHook);
        this.committed(result, items[0]?.ref.source ?? 'none', started);
        return result;
      } catch (err) {
        const found = await isolateRejected(prepared, knownGood, (prefix) => this.trial(prefix));
        if (!found) throw err;
        // Rejections with accepted events between them are the events' fault, however many; a run of them is the store's.
        rejectedInARow = found.index === knownGood ? rejectedInARow + 1 : 1;
        if (rejectedInARow > MAX_REJECTED_IN_A_ROW) throw err;
        const item = prepared[found.index] as PreparedItem;
        this.logger.warn({ err: found.error, ref: item.ref }, 'the store rejected an event; it goes to the dead letters');
        prepared = prepared.map((p, i) => (i === found.index ? { kind: 'dead', raw: p.raw, reason: storeRejectionReason(found.error), ref: p.ref } : p));
        knownGood = found.index + 1;
      }
    }
  }

  private committed(result: BatchResult, source: CommittedBatch['source'], started: number): void {
    this.logger.debug(
      { read: result.read, inserted: result.inserted, updated: result.updated, deleted: result.deleted, dead_letters: result.deadLetters.length, ms: Date.now() - started },
      'batch committed',
    );
    // Old versions of the rows the batch changed stay in DuckDB's memory until a checkpoint: the store runs one once enough add up.
    this.store.noteChangedRows(result.changedRows);
    const batch: CommittedBatch = { source, seconds: (Date.now() - started) / 1000 };
    // The batch stands whatever a listener does: one that throws is logged, and the others still hear of it. Thrown
    // from here, it would make a committed batch look failed to the source (a Kafka batch written again).
    for (const listener of [...this.listeners, ...(storeListeners.get(this.store) ?? [])]) {
      try {
        listener(result, batch);
      } catch (err) {
        this.logger.error({ err }, 'a listener of committed batches failed; the batch is committed all the same');
      }
    }
  }

  private async commit(write: (conn: DuckDBConnection) => Promise<BatchResult>, sourceHook?: BatchHook): Promise<BatchResult> {
    await this.store.writeUntransacted(ensureStage);
    return this.store.write(async (conn) => {
      const r = await write(conn);
      for (const hook of this.hooks) await hook(conn, r);
      if (sourceHook) await sourceHook(conn, r);
      return r;
    });
  }

  /**
   * Writes `prepared` with the pipeline's own hooks (rows in the store only)
   * and rolls it all back: undefined if the store takes them, else its error.
   * The source's hook is left out, as it may reach beyond the store (a DLQ).
   */
  private async trial(prepared: readonly PreparedItem[]): Promise<unknown> {
    await this.store.writeUntransacted(ensureStage);
    try {
      await this.store.write(async (conn) => {
        const r = await writeBatch(conn, prepared);
        for (const hook of this.hooks) await hook(conn, r);
        throw affordError('TRIAL_ROLLBACK');
      });
    } catch (err) {
      return errorCode(err) === 'TRIAL_ROLLBACK' ? undefined : err;
    }
    return undefined;
  }
}

/** The items with every event of a customer in `others` made a dead letter (FOREIGN_CUSTOMER_REASON). */
function refuseForeign(items: readonly PreparedItem[], others: ReadonlySet<string>): PreparedItem[] {
  return items.map((p) => (p.kind === 'event' && others.has(p.event.customer_id) ? { kind: 'dead', raw: p.raw, reason: FOREIGN_CUSTOMER_REASON, ref: p.ref } : p));
}
