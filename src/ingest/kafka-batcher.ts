import type { Logger } from '../logger.js';
import { fromOffset, partitionKey } from './kafka-offsets.js';
import type { SourceMessage } from './kafka-types.js';
import { nextOffsetOf, type KafkaBatchWriter, type PartitionChunk } from './kafka-writer.js';

/** When a transaction starts: whichever limit is reached first. */
export interface BatchLimits {
  /** Most events in one transaction. */
  rows: number;
  /** Most message bytes in one transaction. */
  bytes: number;
  /** Longest an event waits for more to join its transaction. */
  waitMs: number;
  /**
   * Queued events from which a transaction may be large enough for the
   * fast path (FAST_PATH_MIN_ROWS): from then on each queued chunk is handed
   * to `ahead` once. Without it, none is.
   */
  aheadRows?: number;
}

/** A chunk in DuckDB, and its partition's stored offset after it. */
export interface CommittedChunk {
  chunk: PartitionChunk;
  next: bigint;
}

export interface BatcherEvents {
  /** A transaction's chunks are in DuckDB, each with `next` as its partition's stored offset. */
  committed(chunks: readonly CommittedChunk[]): void;
  /** These chunks (failed, then all that were queued behind them) were dropped: their partitions must be read again from `from`. */
  dropped(from: ReadonlyMap<string, { topic: string; partition: number; offset: bigint }>, error: unknown): void;
  /**
   * A queued chunk that may be written in a transaction large enough for
   * the fast path, so that its fast rows can be found now, while the
   * transaction before is written. Chunks queued while fewer than
   * `aheadRows` events wait (a steady stream's) are not handed over: their
   * transaction is validated without the fast path, and finding their rows
   * would be wasted work standing between a message and its commit.
   */
  ahead?(chunk: PartitionChunk): void;
}

type Queued = PartitionChunk & { queuedAt: number; handedAhead?: boolean };

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
  private queue: Queued[] = [];
  /** The chunks of the transaction being written, or of a failed one until its partitions are read again. */
  private writing: readonly PartitionChunk[] = [];
  private rows = 0;
  private bytes = 0;
  private generationNo = 0;
  private running: Promise<void> | undefined;
  /** The transaction being written, settled once it has ended. */
  private inHand: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private roomWaiters: Array<() => void> = [];
  private closed = false;
  private failures = 0;
  private backingOff = false;
  /** Messages each partition had on the broker past the last one queued, when it was fetched. */
  private readonly behind = new Map<string, bigint>();

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

  /** True while a chunk of the partition is in the transaction being written. */
  writes(topic: string, partition: number): boolean {
    return this.writing.some((c) => c.topic === topic && c.partition === partition);
  }

  /** Resolves once the transaction being written now, if there is one, has ended and its positions are recorded. */
  async written(): Promise<void> {
    await this.inHand;
  }

  /** True while a chunk of the partition is queued, being written, or failed and waiting to be read again. */
  holds(topic: string, partition: number): boolean {
    return [...this.queue, ...this.writing].some((c) => c.topic === topic && c.partition === partition);
  }

  /**
   * Where a chunk begins: its first message; for a chunk of no messages, which
   * does not say where its records began, DuckDB's position (the partition's
   * records up to the chunk are there or in chunks before it), or 0.
   */
  private firstOffsetOf(chunk: PartitionChunk): bigint {
    const first = chunk.messages[0];
    return first === undefined ? (this.positions.get(partitionKey(chunk.topic, chunk.partition)) ?? 0n) : BigInt(first.offset);
  }

  hasRoom(): boolean {
    return this.rows < 2 * this.limits.rows && this.bytes < 2 * this.limits.bytes;
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
    if (this.closed || (chunk.messages.length === 0 && chunk.readTo === undefined)) return;
    const behind = chunk.highWatermark === undefined ? 0n : BigInt(chunk.highWatermark) - nextOffsetOf(chunk);
    this.behind.set(partitionKey(chunk.topic, chunk.partition), behind);
    this.queue.push({ ...chunk, queuedAt: performance.now() });
    this.rows += chunk.messages.length;
    this.bytes += chunkBytes(chunk.messages);
    if (this.rows >= (this.limits.aheadRows ?? Infinity)) this.handAhead();
    if (!this.backingOff && (this.rows >= this.limits.rows || this.bytes >= this.limits.bytes)) this.wake?.();
    this.ensureLoop();
  }

  /**
   * Hands every queued chunk not handed yet to `ahead`. Called whenever the
   * queue holds `aheadRows` or more, so that a transaction that large, which
   * only such a queue can give, is made of chunks all handed over.
   */
  private handAhead(): void {
    for (const chunk of this.queue) {
      if (chunk.handedAhead) continue;
      chunk.handedAhead = true;
      if (chunk.messages.length > 0) this.events.ahead?.(chunk);
    }
  }

  /**
   * Starts the write loop unless it runs. The loop ends when it finds the
   * queue empty, but lets go of `running` only a moment later (a turn of the
   * microtask queue): a chunk queued in between would wait there, unwritten,
   * for the next one; and with the queue full, no next one comes, as every
   * partition then waits for room. So the loop's end looks at the queue again.
   */
  private ensureLoop(): void {
    this.running ??= this.loop().finally(() => {
      this.running = undefined;
      if (!this.closed && this.queue.length > 0) this.ensureLoop();
    });
  }

  /** Drops what is queued (not the transaction in hand); returns the first dropped offset per partition. */
  drop(): Map<string, { topic: string; partition: number; offset: bigint }> {
    const from = new Map<string, { topic: string; partition: number; offset: bigint }>();
    for (const chunk of this.queue) {
      const { topic, partition } = chunk;
      const key = partitionKey(topic, partition);
      if (!from.has(key)) from.set(key, { topic, partition, offset: this.firstOffsetOf(chunk) });
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
    while (!this.closed && this.queue.length > 0) {
      const full = this.rows >= this.limits.rows || this.bytes >= this.limits.bytes;
      const wait = this.waitLeft();
      if (!full && wait > 0) {
        await this.sleep(wait);
        continue;
      }
      const group = this.take();
      if (group.length === 0) continue;
      this.writing = group;
      let settle = (): void => undefined;
      this.inHand = new Promise<void>((resolve) => (settle = resolve));
      try {
        const outcome = await this.writer.write(group);
        const committed = outcome.committed.map((chunk) => ({ chunk, next: nextOffsetOf(chunk) }));
        for (const { chunk, next } of committed) this.positions.set(partitionKey(chunk.topic, chunk.partition), next);
        if (committed.length > 0) this.events.committed(committed);
        // Its positions are recorded: whoever waits for the transaction in hand reads them now.
        settle();
        if (outcome.failed.length === 0) {
          this.failures = 0;
          continue;
        }
        await this.failed(outcome.failed, outcome.error);
      } finally {
        this.writing = [];
        settle();
      }
    }
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
    // Closed meanwhile: close dropped the queue, and the next start reads every partition again from the store.
    if (this.closed) return;
    const from = this.drop();
    for (const chunk of chunks) {
      const { topic, partition } = chunk;
      const key = partitionKey(topic, partition);
      const first = this.firstOffsetOf(chunk);
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
    // A close that came before the sleep began (during a write that then failed) has nothing left to wake.
    if (this.closed) return;
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
   * limits, merged per partition and stripped of what DuckDB already holds.
   * A chunk goes in whole (the first always: the consumer queues none
   * larger than the limits) or waits for the next transaction, so that what
   * was found for it ahead (its fast rows' customers) holds for the
   * transaction as it is.
   */
  private take(): PartitionChunk[] {
    const merged = new Map<string, { topic: string; partition: number; messages: SourceMessage[]; highWatermark?: string; readTo?: bigint }>();
    let rows = 0;
    let bytes = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0] as Queued;
      const size = chunkBytes(next.messages);
      if (rows > 0 && (rows + next.messages.length > this.limits.rows || bytes + size > this.limits.bytes)) break;
      this.queue.shift();
      rows += next.messages.length;
      bytes += size;
      const key = partitionKey(next.topic, next.partition);
      const stored = this.positions.get(key);
      const fresh = stored === undefined ? next.messages : fromOffset(next.messages, stored);
      const entry = merged.get(key) ?? { topic: next.topic, partition: next.partition, messages: [] };
      entry.messages.push(...fresh);
      entry.highWatermark = next.highWatermark;
      // The latest chunk's: an earlier one's ends before the messages after it.
      entry.readTo = next.readTo;
      merged.set(key, entry);
    }
    this.rows -= rows;
    this.bytes -= bytes;
    this.notifyRoom();
    return [...merged.values()].filter((c) => c.messages.length > 0 || (c.readTo !== undefined && c.readTo > (this.positions.get(partitionKey(c.topic, c.partition)) ?? 0n)));
  }
}
