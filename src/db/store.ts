import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync } from 'node:fs';

import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import './text-values.js';
import { migrate } from './migrate.js';
import { ensureKeyHashes } from './key-hashes.js';
import { runScript, runScriptWithPaths } from './script.js';
import type { Logger } from '../logger.js';
import { affordError, affordErrorCausedBy, errorCode } from '../domain/errors.js';

// Timestamps are stored as UTC without a zone. `current_timestamp` (a column's
// default) turns into a plain TIMESTAMP in DuckDB's TimeZone, which its ICU
// takes from the process's zone: the process is pinned to UTC before any
// instance exists, and the store's instance is set to UTC as it opens
// (set-time-zone.sql), in case one was made before.
process.env.TZ = 'UTC';

/**
 * What keeps the process's memory flat beside DuckDB's memory_limit, which
 * bounds only DuckDB's own buffers: this DuckDB build allocates through
 * glibc malloc, which keeps what is freed for reuse; DuckDB gives it back to
 * the system (flushes its allocator) once a task's peak or one bulk free
 * passes these thresholds, 128 MiB and 512 MiB by default, which left
 * hundreds of MB resident.
 */
const MEMORY_SETTINGS: Readonly<Record<string, string>> = {
  allocator_flush_threshold: '16MB',
  allocator_bulk_deallocation_flush_threshold: '16MB',
};

/** The settings every DuckDB instance of afford opens with, the store's or a read-only one's: memory bounded alike. */
export function instanceSettings(memoryLimit?: string): Record<string, string> {
  return { ...MEMORY_SETTINGS, ...(memoryLimit ? { memory_limit: memoryLimit } : {}) };
}

/**
 * What DuckDB says of a database it has given up on, after a checkpoint
 * that failed (out of memory, a full disk): every statement on it fails
 * until it is detached and attached again, which replays its write-ahead
 * log. Nothing committed is lost; only the checkpoint is.
 */
const INVALIDATED = /has been invalidated/i;

/**
 * What DuckDB says when a COMMIT went through and the checkpoint it then
 * ran (the log past `checkpoint_threshold`) failed: the transaction is
 * durable, and the database invalidated.
 */
const COMMITTED_THEN_CHECKPOINT_FAILED = /COMMIT succeeded and is durable/i;

/** How long after a failed attempt to attach the store again a failing read may ask for the next: reads do not each try (and log). */
const REOPEN_RETRY_MS = 1000;

/** Set inside a read: a read it makes in turn runs at once, since waiting for a turn its caller holds could wait forever. */
const insideRead = new AsyncLocalStorage<true>();

/**
 * One DuckDB file, one writer. Every write goes through `write`, which runs
 * its callback in a transaction on the single writer connection, one at a
 * time. Reads use their own connections and see committed snapshots.
 */
export class Store {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly idleReaders: DuckDBConnection[] = [];
  private closed = false;
  /** Set by the first close (see close). */
  private closing: Promise<void> | undefined;
  /** Stored rows deleted or updated by writes since the last checkpoint afford ran. */
  private changedSinceCheckpoint = 0;
  /** Reads running now, and the reads waiting for a turn (see read). */
  private readsRunning = 0;
  private readonly readsWaiting: (() => void)[] = [];
  /** Set when a statement found the store invalidated by DuckDB; cleared once it is attached again (see reopenIfInvalidated). */
  private invalidated = false;
  /** Set while an attempt to attach the store again waits on the writer queue (see noted). */
  private reopenQueued = false;
  /** When the last attempt to attach the store again failed, while the store is still invalidated (see noted). */
  private reopenFailedAt: number | undefined;

  private constructor(
    readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
    readonly logger: Logger,
    private readonly checkpointChangedRows: number,
    private readonly readers: number,
  ) {}

  /**
   * `memoryLimit` caps DuckDB's caches (for example '256MB'); unset, DuckDB
   * takes most of the machine's memory. `checkpointThreshold` is how much
   * the write-ahead log holds before DuckDB checkpoints; unset, DuckDB's own.
   * `threads` is how many threads DuckDB runs each query on; unset, one per
   * core. `checkpointChangedRows` is how many stored rows writes may delete
   * or update before afford checkpoints (see noteChangedRows); unset or 0,
   * only DuckDB's own threshold does. `readers` is how many reads run at
   * once (see read); unset, as many as are asked for.
   */
  static async open(
    dbPath: string,
    logger: Logger,
    options: { memoryLimit?: string; checkpointThreshold?: string; threads?: number; checkpointChangedRows?: number; readers?: number } = {},
  ): Promise<Store> {
    if (dbPath !== ':memory:') mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
    const settings = {
      ...instanceSettings(options.memoryLimit),
      ...(options.checkpointThreshold ? { checkpoint_threshold: options.checkpointThreshold } : {}),
      ...(options.threads ? { threads: String(options.threads) } : {}),
      // No extension is fetched or loaded behind afford's back (the ones it uses are built in).
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      // Where DuckDB spills what does not fit its memory limit: beside the file, as when DuckDB opens a file itself.
      ...(dbPath !== ':memory:' ? { temp_directory: `${dbPath}.tmp` } : {}),
    };
    // The file is attached to an instance in memory rather than opened as its main database: see attach-store.sql.
    const instance = await DuckDBInstance.create(':memory:', settings);
    const writer = await instance.connect();
    if (dbPath !== ':memory:') {
      // A new file is created in DuckDB 1.5's storage format; one that exists keeps its own (see create-store.sql).
      const script = existsSync(dbPath) ? 'queries/db/attach-store' : 'queries/db/create-store';
      await runScriptWithPaths(writer, script, { store_file: dbPath }).catch((err: Error) => {
        writer.closeSync();
        instance.closeSync();
        // DuckDB lets one process open a file for writing: DATABASE_BUSY says another one has it.
        throw /Could not set lock/i.test(err.message) ? affordErrorCausedBy(err, 'DATABASE_BUSY', dbPath) : err;
      });
    }
    await runScript(writer, 'queries/db/set-time-zone');
    await migrate(writer, logger, dbPath);
    await ensureKeyHashes(writer, logger);
    return new Store(dbPath, instance, writer, logger, options.checkpointChangedRows ?? 0, options.readers ?? Number.POSITIVE_INFINITY);
  }

  /** False once close() has begun: nothing read from the store may be served any more. */
  get isOpen(): boolean {
    return !this.closed;
  }

  /** Runs `fn` inside one transaction on the writer connection, after every earlier write. */
  write<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.onWriter(async (): Promise<T> => {
      await this.reopenIfInvalidated();
      let result: T;
      try {
        // Inside the try: a BEGIN that fails on an invalidated store is noted like any other statement.
        await this.writer.run('BEGIN TRANSACTION');
        result = await fn(this.writer);
        await this.writer.run('COMMIT');
      } catch (err) {
        // Committed all the same: what the transaction wrote stands, and so does its result (a Kafka batch's
        // offsets are stored with its rows; taking it for failed would write it again). The store is attached
        // again before the next statement.
        if (err instanceof Error && COMMITTED_THEN_CHECKPOINT_FAILED.test(err.message)) {
          this.noted(err);
          return result!;
        }
        await this.writer.run('ROLLBACK').catch(() => undefined);
        throw this.noted(err);
      }
      return result;
    });
  }

  /**
   * Runs `fn` on the writer connection without a transaction (for
   * statements such as COPY, CHECKPOINT or a setting). A store that cannot
   * be attached again still runs `fn`: a setting needs no store, and may be
   * what lets the next attempt succeed (a memory limit set back). Once the
   * store is closed, `fn` is not run: its connection is closed, or about to
   * be (a job's settings set back as the service stops).
   */
  writeUntransacted<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.onWriter(async (): Promise<T> => {
      await this.reopenIfInvalidated().catch(() => undefined);
      return fn(this.writer).catch((err: unknown) => {
        throw this.noted(err);
      });
    });
  }

  /** Runs `run` on the writer queue, after every earlier write; once the store is closed, fails with STORE_CLOSED instead. */
  private onWriter<T>(run: () => Promise<T>): Promise<T> {
    const guarded = async (): Promise<T> => {
      if (this.closed) throw affordError('STORE_CLOSED');
      return run();
    };
    const next = this.queue.then(guarded, guarded);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Writes everything the log holds into the file, after every earlier
   * write. A job calls it when it ends: with a large checkpoint threshold,
   * what a job wrote (the nightly reports are hundreds of MB) would
   * otherwise stay in DuckDB's memory until the log reached it.
   */
  checkpoint(): Promise<void> {
    const checkpointed = this.writeUntransacted(async (conn) => {
      await conn.run('CHECKPOINT');
      this.changedSinceCheckpoint = 0;
    });
    // A closed store checkpointed as it closed.
    return checkpointed.catch((err: unknown) => {
      if (errorCode(err) !== 'STORE_CLOSED') throw err;
    });
  }

  /**
   * Counts stored rows that a committed write deleted or updated (a
   * transaction's older version, a customer-month's totals rewritten), and
   * queues a checkpoint after the writes already queued once they add up to
   * `checkpointChangedRows`. DuckDB holds the old versions of such rows in
   * memory it cannot evict until a checkpoint, and its own trigger, the
   * write-ahead log's size, hardly sees them: the log records a deletion in
   * a few bytes, and a large batch's new rows go into the file itself. A
   * checkpoint that fails (another transaction in its way) is logged and
   * left to the next count or to DuckDB.
   */
  noteChangedRows(rows: number): void {
    if (this.checkpointChangedRows <= 0 || rows <= 0) return;
    this.changedSinceCheckpoint += rows;
    if (this.changedSinceCheckpoint < this.checkpointChangedRows) return;
    this.changedSinceCheckpoint = 0;
    this.checkpoint().catch((err: unknown) => this.logger.warn({ err }, 'checkpoint after changed rows failed; the next one will try again'));
  }

  /**
   * Runs `fn` on a reader connection of its own, seeing committed data. At
   * most `readers` run at once, the rest in the order they asked: each
   * holds DuckDB buffers under the one memory limit, and more reads at once
   * than there were buffers for failed with DuckDB's out-of-memory error. A
   * read made inside another runs at once.
   */
  async read<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) throw affordError('STORE_CLOSED');
    if (insideRead.getStore()) return this.readOnConnection(fn);
    if (this.readsRunning >= this.readers) await new Promise<void>((turn) => this.readsWaiting.push(turn));
    else this.readsRunning++;
    try {
      return await insideRead.run(true, () => this.readOnConnection(fn));
    } finally {
      // The turn passes to the next waiting read, or is given back.
      const next = this.readsWaiting.shift();
      if (next) next();
      else this.readsRunning--;
    }
  }

  private async readOnConnection<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) throw affordError('STORE_CLOSED');
    let conn: DuckDBConnection | undefined;
    try {
      conn = this.idleReaders.pop() ?? (await this.connect());
      return await fn(conn);
    } catch (err) {
      throw this.noted(err);
    } finally {
      if (conn && this.closed) conn.closeSync();
      else if (conn) this.idleReaders.push(conn);
    }
  }

  /** A reader connection with the store as its default; none when that fails (the store not attached, say). */
  private async connect(): Promise<DuckDBConnection> {
    const conn = await this.instance.connect();
    if (this.path === ':memory:') return conn;
    try {
      await runScript(conn, 'queries/db/use-store');
    } catch (err) {
      conn.closeSync();
      throw err;
    }
    return conn;
  }

  /**
   * Returns `err`, noting first whether it says DuckDB invalidated the
   * store. Such an error, and any error while the store is invalidated,
   * queues an attempt to attach it again on the writer (one at a time, and
   * not within REOPEN_RETRY_MS of one that failed), so that reads bring the
   * store back without waiting for a write.
   */
  private noted(err: unknown): unknown {
    if (this.path === ':memory:') return err;
    if (!this.invalidated) {
      if (!(err instanceof Error) || !INVALIDATED.test(err.message)) return err;
      this.invalidated = true;
      this.logger.error({ err }, 'DuckDB invalidated the store; attaching it again');
    }
    const waiting = this.reopenFailedAt !== undefined && Date.now() - this.reopenFailedAt < REOPEN_RETRY_MS;
    if (!this.reopenQueued && !this.closed && !waiting) {
      this.reopenQueued = true;
      this.writeUntransacted(async () => undefined).catch(() => undefined);
    }
    return err;
  }

  /**
   * Attaches the store's file again if DuckDB invalidated it, on a
   * connection of its own (a connection cannot detach its own default);
   * every other connection keeps the database as its default by name and
   * works again. Attaching replays the write-ahead log, so the store is as
   * its last commit left it. When that fails too (DuckDB still short of
   * memory, say), the store stays invalidated, and the next statement on
   * the writer tries again, as does the next that fails once
   * REOPEN_RETRY_MS have passed; a write fails with this error meanwhile.
   */
  private async reopenIfInvalidated(): Promise<void> {
    this.reopenQueued = false;
    if (!this.invalidated || this.closed) return;
    const conn = await this.instance.connect();
    try {
      await runScript(conn, 'queries/db/detach-store');
      await runScriptWithPaths(conn, 'queries/db/attach-store', { store_file: this.path });
      this.invalidated = false;
      this.reopenFailedAt = undefined;
      this.logger.warn({ path: this.path }, 'store attached again after DuckDB invalidated it; everything committed is there');
    } catch (err) {
      this.reopenFailedAt = Date.now();
      this.logger.error({ err }, 'could not attach the store again; a later statement tries again');
      throw err;
    } finally {
      conn.closeSync();
    }
  }

  /**
   * Closes the store once every write queued before it is done, and those
   * queued while they ran; a write queued after that fails with
   * STORE_CLOSED rather than run on a connection being closed. Closing
   * twice, or twice at once, closes it once.
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    for (let queued = this.queue; ; queued = this.queue) {
      await queued;
      if (queued === this.queue) break;
    }
    this.closed = true;
    for (const c of this.idleReaders.splice(0)) c.closeSync();
    await this.writer.run('CHECKPOINT').catch(() => undefined);
    this.writer.closeSync();
    this.instance.closeSync();
  }
}
