import type { Logger } from '../logger.js';
import { partitionKey } from './kafka-offsets.js';
import type { SourceBatch } from './kafka-types.js';

/** What the stall check needs of the consumer it watches. */
export interface StallWatched {
  /** False once the consumer stops: a check then does nothing. */
  running(): boolean;
  /** The partitions assigned to this worker, by topic. */
  assigned(): ReadonlyMap<string, readonly number[]>;
  /** The ends of the topics' partitions, keyed `topic#partition`; undefined when the brokers cannot say. */
  endOffsets(topics: string[]): Promise<ReadonlyMap<string, bigint> | undefined>;
  /** DuckDB's next offset of the partition. */
  position(key: string): bigint;
  /** Whether something of the partition waits for room in the queue or to be written. */
  holds(topic: string, partition: number, key: string): boolean;
  /** The next offset queued of the partition, for the warning. */
  queuedTo(key: string): bigint | undefined;
  /** Reads the partition again from `at`. */
  readAgain(topic: string, partition: number, at: bigint): void;
}

/**
 * Finds the assigned partitions that are behind their ends and have stopped:
 * run every so often, a partition whose stored offset has not moved since
 * the check before, of which the client fetched nothing meanwhile (nor was
 * it read again after a failed write), and of which nothing waits for room
 * or to be written, has stopped. The client's position may be past DuckDB's
 * with no batch to come and show it (a batch is what makes the consumer
 * seek back). It is logged with what the client last fetched of it, and read
 * again from the stored offset, once for each offset it stops at, so that a
 * partition that cannot move is not read again at every check.
 */
export class StallCheck {
  /** Partitions fetched, or read again after a failed write, since the check last ran; and each one's position then. */
  private active = new Set<string>();
  private positionsAtCheck = new Map<string, bigint>();
  /** The position each partition was last read again from, so that one that cannot move is read again once. */
  private readonly readAgainAt = new Map<string, bigint>();
  /** What the client last fetched of each partition, for the warning. */
  private readonly lastFetched = new Map<string, { fetched: string; offsets: string; high_watermark: string; at: number }>();

  constructor(
    private readonly watched: StallWatched,
    private readonly log: Logger,
  ) {}

  /** The client fetched a batch of the partition. */
  fetched(key: string, batch: SourceBatch): void {
    this.active.add(key);
    this.lastFetched.set(key, {
      fetched: batch.fetchedOffset,
      offsets: batch.messages.length === 0 ? 'none' : `${batch.messages[0]?.offset}..${batch.messages.at(-1)?.offset}`,
      high_watermark: batch.highWatermark,
      at: Date.now(),
    });
  }

  /** The partition is read again (after a failed write): it has not stopped. */
  movedOn(key: string): void {
    this.active.add(key);
  }

  /** A new assignment: what the checks before saw no longer counts. */
  reset(): void {
    this.active.clear();
    this.positionsAtCheck.clear();
  }

  async check(): Promise<void> {
    if (!this.watched.running() || this.watched.assigned().size === 0) return;
    const ends = await this.watched.endOffsets([...this.watched.assigned().keys()]);
    if (!ends || !this.watched.running()) return;
    const before = this.positionsAtCheck;
    const active = this.active;
    this.positionsAtCheck = new Map();
    this.active = new Set();
    for (const [topic, partitions] of this.watched.assigned()) {
      for (const partition of partitions) {
        const key = partitionKey(topic, partition);
        const at = this.watched.position(key);
        this.positionsAtCheck.set(key, at);
        const end = ends.get(key) ?? 0n;
        const still = before.get(key) === at && !active.has(key) && !this.watched.holds(topic, partition, key);
        if (at >= end || !still || this.readAgainAt.get(key) === at) continue;
        const last = this.lastFetched.get(key);
        this.log.warn(
          {
            topic,
            partition,
            stored: String(at),
            end: String(end),
            queued_to: this.watched.queuedTo(key)?.toString() ?? null,
            last_fetched: last ? { fetched: last.fetched, offsets: last.offsets, high_watermark: last.high_watermark, ago_ms: Date.now() - last.at } : null,
          },
          'partition is behind its end and has stopped; reading it again from the stored offset',
        );
        this.readAgainAt.set(key, at);
        this.watched.readAgain(topic, partition, at);
      }
    }
  }
}
