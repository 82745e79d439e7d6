import type { Logger } from '../logger.js';
import { partitionKey } from './kafka-offsets.js';
import type { SourceMessage } from './kafka-types.js';
import type { KafkaBatchWriter, PartitionChunk, PreparedWrite } from './kafka-writer.js';
import { FAST_PATH_MIN_ROWS } from './pipeline.js';

/** When a transaction starts: whichever limit is reached first. */
export interface BatchLimits {
  /** Most events in one transaction. */
  rows: number;
  /** Most message bytes in one transaction. */
  bytes: number;
  /** Longest an event waits for more to join its transaction. */
  waitMs: number;
}

export interface BatcherEvents {
  /** A chunk is in DuckDB, with `next` as its partition's stored offset. */
  committed(chunk: PartitionChunk, next: bigint): void;
  /** These chunks (failed, then all that were queued behind them) were dropped: their partitions must be read again from `from`. */
  dropped(from: ReadonlyMap<string, { topic: string; partition: number; offset: bigint }>, error: unknown): void;
}

const MAX_BACKOFF_MS = 30_000;
/** The longest a transaction waits for a backlog still streaming in, in times `waitMs`. */
const BACKLOG_WAITS = 4;
const chunkBytes = (messages: readonly SourceMessage[]): number => messages.reduce((n, m) => n + (m.value?.length ?? 0) + (m.key?.length ?? 0), 0);

/**
 * Gathers the chunks of every partition into DuckDB transactions bounded by
 * rows, bytes and time, and writes them while the client goes on fetching:
 * a backlog is written in large transactions, each paying the fixed cost of
 * a commit once, and a steady stream waits at most `waitMs` (plus the
 * transaction in hand) to be written. The queue holds at most two
 * transactions' worth; the client waits for room, which bounds memory.
 *
 * `positions` is the truth of what DuckDB holds: messages below a
 * partition's position are dropped just before each write, so a chunk
 * fetched twice (a rebalance, a seek back) is written once.
 */
export class KafkaBatcher {
  private queue: Array<PartitionChunk & { queuedAt: number }> = [];
  private rows = 0;
  private bytes = 0;
  private generationNo = 0;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private roomWaiters: Array<() => void> = [];
  private closed = false;
  private failures = 0;
  private backingOff = false;
  /** Messages each partition had on the broker past the last one queued, when it was fetched. */
  private readonly behind = new Map<string, bigint>();
  /** A backlog's next transaction, taken from the queue and parsed while the one before is written. */
  private ahead: { group: PartitionChunk[]; prepared: PreparedWrite; rows: number; bytes: number } | undefined;
  /** A transaction is being written: the next may be taken ahead as soon as it is queued. */
  private writing = false;

  constructor(
    private readonly writer: KafkaBatchWriter,
    private readonly limits: BatchLimits,
    private readonly positions: Map<string, bigint>,
    private readonly events: BatcherEvents,
    private readonly log: Logger,
  ) {}

  /** Changes whenever the queue is dropped: a chunk fetched before then must not be queued after. */
  get generation(): number {
    return this.generationNo;
  }

  hasRoom(): boolean {
    const rows = this.rows + (this.ahead?.rows ?? 0);
    const bytes = this.bytes + (this.ahead?.bytes ?? 0);
    return rows < 2 * this.limits.rows && bytes < 2 * this.limits.bytes;
  }

  /** Resolves when there is room, the queue was dropped, or the batcher closed; `giveUp` is polled meanwhile. */
  async waitForRoom(giveUp: () => boolean): Promise<void> {
    const generation = this.generationNo;
    while (!this.hasRoom() && !this.closed && generation === this.generationNo && !giveUp()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.roomWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  add(chunk: PartitionChunk): void {
    if (this.closed || chunk.messages.length === 0) return;
    const last = chunk.messages.at(-1) as SourceMessage;
    const behind = chunk.highWatermark === undefined ? 0n : BigInt(chunk.highWatermark) - BigInt(last.offset) - 1n;
    this.behind.set(partitionKey(chunk.topic, chunk.partition), behind);
    this.queue.push({ ...chunk, queuedAt: performance.now() });
    this.rows += chunk.messages.length;
    this.bytes += chunkBytes(chunk.messages);
    if (!this.backingOff && (this.rows >= this.limits.rows || this.bytes >= this.limits.bytes)) this.wake?.();
    // The fetch caught up while a transaction is written: the next one is parsed now rather than after it.
    if (this.writing && this.ahead === undefined && this.backlogQueued()) this.takeAhead();
    this.running ??= this.loop().finally(() => {
      this.running = undefined;
    });
  }

  /** Drops what is queued (not the transaction in hand); returns the first dropped offset per partition. */
  drop(): Map<string, { topic: string; partition: number; offset: bigint }> {
    // The transaction parsed ahead was not written: it is dropped with the queue, and read again from its first offsets.
    this.requeueAhead();
    const from = new Map<string, { topic: string; partition: number; offset: bigint }>();
    for (const { topic, partition, messages } of this.queue) {
      const key = partitionKey(topic, partition);
      const first = messages[0];
      if (first && !from.has(key)) from.set(key, { topic, partition, offset: BigInt(first.offset) });
    }
    this.queue = [];
    this.rows = 0;
    this.bytes = 0;
    // What the partitions were behind is learnt again from the next fetches (a revoked one's would hold transactions back).
    this.behind.clear();
    this.generationNo++;
    this.notifyRoom();
    return from;
  }

  /** Finishes the transaction in hand and drops the rest, which the next start reads again. */
  async close(): Promise<void> {
    this.closed = true;
    this.drop();
    this.wake?.();
    await this.running;
  }

  private notifyRoom(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }

  private async loop(): Promise<void> {
    // One turn of the event loop lets the other partitions' batches of the same fetch join the first transaction.
    await new Promise((resolve) => setImmediate(resolve));
    while (!this.closed && (this.queue.length > 0 || this.ahead !== undefined)) {
      let group: PartitionChunk[];
      let prepared: PreparedWrite | undefined;
      if (this.ahead !== undefined) {
        ({ group, prepared } = this.ahead);
        this.ahead = undefined;
        // Messages the transaction before has just written (a chunk fetched twice) go out, and the parse with them.
        const fresh = this.freshOnly(group);
        if (fresh !== group) {
          this.writer.discard(prepared);
          prepared = undefined;
          group = fresh;
        }
      } else {
        const full = this.rows >= this.limits.rows || this.bytes >= this.limits.bytes;
        const wait = this.waitLeft();
        if (!full && wait > 0) {
          await this.sleep(wait);
          continue;
        }
        group = this.take();
      }
      if (group.length === 0) continue;
      const writing = this.writer.write(group, prepared);
      // A backlog: the next transaction is queued in full already (or the end of the backlog is, and is large), so it is parsed while this one is written.
      if (this.backlogQueued()) this.takeAhead();
      this.writing = true;
      const outcome = await writing.finally(() => {
        this.writing = false;
      });
      for (const chunk of outcome.committed) {
        const next = BigInt((chunk.messages.at(-1) as SourceMessage).offset) + 1n;
        this.positions.set(partitionKey(chunk.topic, chunk.partition), next);
        this.events.committed(chunk, next);
      }
      if (outcome.failed.length === 0) {
        this.failures = 0;
        continue;
      }
      // What was parsed ahead is dropped with the queue behind the failed chunks (drop), and read again.
      await this.failed(outcome.failed, outcome.error);
    }
  }

  /**
   * Whether the next transaction is queued already, as it will be written:
   * in full, or, once every partition has been fetched to its end, all that
   * is left of a backlog, when it is large enough for the fast path. A
   * steady stream's few messages are not taken ahead: they wait to join
   * their transaction as before.
   */
  private backlogQueued(): boolean {
    if (this.rows >= this.limits.rows || this.bytes >= this.limits.bytes) return true;
    return this.rows >= FAST_PATH_MIN_ROWS && ![...this.behind.values()].some((n) => n > 0n);
  }

  private takeAhead(): void {
    const group = this.take();
    if (group.length === 0) return;
    const rows = group.reduce((n, c) => n + c.messages.length, 0);
    const bytes = group.reduce((n, c) => n + chunkBytes(c.messages), 0);
    this.ahead = { group, prepared: this.writer.prepare(group), rows, bytes };
  }

  /** A chunk's messages from its partition's stored position on: those DuckDB does not hold yet. */
  private freshMessages(chunk: PartitionChunk): readonly SourceMessage[] {
    const stored = this.positions.get(partitionKey(chunk.topic, chunk.partition));
    return stored === undefined ? chunk.messages : chunk.messages.filter((m) => BigInt(m.offset) >= stored);
  }

  /** The chunks without the messages DuckDB holds already: `group` itself when there are none. */
  private freshOnly(group: PartitionChunk[]): PartitionChunk[] {
    const fresh = group.map((chunk) => ({ ...chunk, messages: this.freshMessages(chunk) }));
    if (fresh.every((chunk, i) => chunk.messages.length === (group[i] as PartitionChunk).messages.length)) return group;
    return fresh.filter((chunk) => chunk.messages.length > 0);
  }

  /** Puts the transaction parsed ahead back at the front of the queue, unwritten, and lets its parse go. */
  private requeueAhead(): void {
    const ahead = this.ahead;
    if (ahead === undefined) return;
    this.ahead = undefined;
    this.writer.discard(ahead.prepared);
    const queuedAt = performance.now();
    this.queue.unshift(...ahead.group.map((chunk) => ({ ...chunk, queuedAt })));
    this.rows += ahead.rows;
    this.bytes += ahead.bytes;
  }

  /**
   * The failed chunks and everything queued behind them are dropped, after a
   * growing pause, and their partitions read again: the store or the DLQ may
   * be back by then, and a partition never commits past a chunk it lacks.
   */
  private async failed(chunks: readonly PartitionChunk[], error: unknown): Promise<void> {
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(this.failures++, 10));
    this.log.error({ err: error, partitions: chunks.map((c) => partitionKey(c.topic, c.partition)), retryInMs: delay }, 'Kafka batch failed; its partitions will be read again');
    this.backingOff = true;
    await this.sleep(delay);
    this.backingOff = false;
    const from = this.drop();
    for (const { topic, partition, messages } of chunks) {
      const key = partitionKey(topic, partition);
      const first = BigInt((messages[0] as SourceMessage).offset);
      const queued = from.get(key);
      if (!queued || first < queued.offset) from.set(key, { topic, partition, offset: first });
    }
    this.events.dropped(from, error);
  }

  /**
   * How long the next transaction waits for more: until its first message
   * has waited `waitMs`; and while the partitions are still behind their
   * ends (a backlog being fetched), on until it has waited BACKLOG_WAITS
   * times `waitMs`, so that a backlog's first transaction is as large as the
   * ones after it rather than what came in the first `waitMs`. A steady
   * stream is read up to its ends, so it never waits longer than `waitMs`.
   */
  private waitLeft(): number {
    const now = performance.now();
    const firstAt = this.queue[0]?.queuedAt ?? 0;
    const first = firstAt + this.limits.waitMs - now;
    if (first > 0 || ![...this.behind.values()].some((n) => n > 0n)) return first;
    return Math.min(this.limits.waitMs / 5, firstAt + BACKLOG_WAITS * this.limits.waitMs - now);
  }

  /** A pause that close(), or a full queue outside a backoff, cuts short. */
  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }

  /**
   * The next transaction: chunks from the front of the queue up to the
   * limits (the first one always), merged per partition and stripped of
   * what DuckDB already holds.
   */
  private take(): PartitionChunk[] {
    const merged = new Map<string, { topic: string; partition: number; messages: SourceMessage[]; highWatermark?: string }>();
    let rows = 0;
    let bytes = 0;
    while (this.queue.length > 0) {
      let next = this.queue[0] as PartitionChunk & { queuedAt: number };
      let size = chunkBytes(next.messages);
      if (rows > 0 && (rows + next.messages.length > this.limits.rows || bytes + size > this.limits.bytes)) {
        // A backlog fills its transaction to the row limit: the front of the next chunk joins, its rest stays first in line.
        const head = next.messages.slice(0, this.limits.rows - rows);
        const headBytes = chunkBytes(head);
        if (head.length === 0 || bytes + headBytes > this.limits.bytes) break;
        this.queue[0] = { ...next, messages: next.messages.slice(head.length) };
        next = { ...next, messages: head };
        size = headBytes;
      } else {
        this.queue.shift();
      }
      rows += next.messages.length;
      bytes += size;
      const key = partitionKey(next.topic, next.partition);
      const fresh = this.freshMessages(next);
      const entry = merged.get(key) ?? { topic: next.topic, partition: next.partition, messages: [] };
      entry.messages.push(...fresh);
      entry.highWatermark = next.highWatermark;
      merged.set(key, entry);
    }
    this.rows -= rows;
    this.bytes -= bytes;
    this.notifyRoom();
    return [...merged.values()].filter((c) => c.messages.length > 0);
  }
}
