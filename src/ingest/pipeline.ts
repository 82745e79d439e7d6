import type { DuckDBConnection } from '@duckdb/node-api';
import type { Store } from '../db/store.js';
import type { Logger } from '../logger.js';
import { prepareItems } from './prepare.js';
import { writeBatch } from './write-batch.js';
import type { BatchResult, RawItem, SourceRef } from './types.js';

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
 * The one path into the store for files, Kafka and HTTP: validate, then write
 * the batch, its dead letters, its monthly totals and whatever the source
 * adds, in one transaction.
 */
export class IngestPipeline {
  private readonly hooks: BatchHook[] = [];
  private readonly listeners: CommitListener[] = [];

  constructor(
    readonly store: Store,
    private readonly logger: Logger,
  ) {}

  onBatch(hook: BatchHook): void {
    this.hooks.push(hook);
  }

  onCommit(listener: CommitListener): void {
    this.listeners.push(listener);
  }

  async ingest(items: readonly RawItem[], sourceHook?: BatchHook): Promise<BatchResult> {
    const prepared = prepareItems(items);
    const started = Date.now();
    const result = await this.store.write(async (conn) => {
      const r = await writeBatch(conn, prepared);
      for (const hook of this.hooks) await hook(conn, r);
      if (sourceHook) await sourceHook(conn, r);
      return r;
    });
    this.logger.debug(
      { read: result.read, inserted: result.inserted, updated: result.updated, deleted: result.deleted, deadLetters: result.deadLetters.length, ms: Date.now() - started },
      'batch committed',
    );
    const batch: CommittedBatch = { source: items[0]?.ref.source ?? 'none', seconds: (Date.now() - started) / 1000 };
    for (const listener of [...this.listeners, ...(storeListeners.get(this.store) ?? [])]) listener(result, batch);
    return result;
  }
}
