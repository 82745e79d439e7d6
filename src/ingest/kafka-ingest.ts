import type { Logger } from '../logger.js';
import { DeadLetterPublisher } from './dlq.js';
import { fromOffset, loadStoredOffsets, partitionKey } from './kafka-offsets.js';
import { describeConnection, type KafkaIngestSettings } from './kafka-settings.js';
import { KafkaBatcher, type CommittedChunk } from './kafka-batcher.js';
import { createOffsetReader, createProducer, startGroupConsumer } from './kafka-client.js';
import type { BatchControl, GroupConsumer, MessageProducer, OffsetReader, PartitionSeek, SourceBatch, SourceMessage } from './kafka-types.js';
import { findAhead } from './kafka-found-rows.js';
import { KafkaBatchWriter, type BatchIngester } from './kafka-writer.js';
import type { IngestMetrics } from './metrics.js';
import { ownsPartition } from './shard-assigner.js';
import { StallCheck } from './kafka-stall-check.js';
import { catchUpProbe } from './kafka-catch-up.js';
import { FAST_PATH_MIN_ROWS } from './pipeline.js';

/**
 * A transaction's byte limit: a full fetch of 16 partitions, and never below
 * 24 MiB, so that rows, not bytes, bound transactions of ordinary events
 * (25,000 of about 700 bytes). The queue holds two transactions' worth.
 */
const TRANSACTION_PARTITIONS = 16;
const TRANSACTION_BYTES_FLOOR = 24 * 1024 * 1024;

/** How often a worker looks for an assigned partition that is behind its end and has stopped moving. */
const STALL_CHECK_MS = 15_000;

export interface KafkaIngestDeps {
  pipeline: BatchIngester;
  metrics: IngestMetrics;
  logger: Logger;
  settings: KafkaIngestSettings;
  /** STALL_CHECK_MS unless given (tests give less). */
  stallCheckMs?: number;
}

/** Splits a fetched batch into chunks no larger than one transaction. */
export function* boundedChunks(messages: readonly SourceMessage[], maxRows: number, maxBytes: number): Generator<SourceMessage[]> {
  let chunk: SourceMessage[] = [];
  let bytes = 0;
  for (const m of messages) {
    const size = (m.value?.length ?? 0) + (m.key?.length ?? 0);
    if (chunk.length > 0 && (chunk.length >= maxRows || bytes + size > maxBytes)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(m);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

/** Keeps the group membership alive while a batch waits for room behind a long transaction. */
async function withHeartbeats<T>(control: BatchControl, fn: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    // A rebalance reported here is seen again by the heartbeat after the transaction, which acts on it.
    control.heartbeat().catch(() => undefined);
  }, 1000);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Kafka -> DuckDB, exactly once. DuckDB holds each partition's next offset,
 * written in the same transaction as the rows; on every assignment the
 * consumer seeks there, whatever Kafka's committed offsets say. The commit to
 * Kafka afterwards only feeds lag monitoring.
 *
 * A fetched batch is queued in the batcher (kafka-batcher.ts) and the client
 * fetches on while DuckDB writes; the client's position runs ahead of
 * DuckDB's by at most the queue.
 */
export class KafkaIngest {
  private readonly positions = new Map<string, bigint>();
  private partitions: Promise<number> | undefined;
  /** Next offset to queue per partition: the end of what is queued, or DuckDB's position. */
  private readonly queuedTo = new Map<string, bigint>();
  private readonly soughtBack = new Set<string>();
  /** How many times each partition's offset was reset, its stored offset being past its end (a topic made again). */
  private readonly resets = new Map<string, number>();
  private assigned = new Map<string, readonly number[]>();
  /** Partitions with a fetched batch waiting for room in the queue, or for the fast rows of the transaction in hand. */
  private readonly waitingForRoom = new Set<string>();
  private readonly stalls: StallCheck;
  private stallTimer: NodeJS.Timeout | undefined;
  private consumer: GroupConsumer | undefined;
  private stopping = false;
  private closing: Promise<void> = Promise.resolve();
  private readonly log: Logger;
  private readonly batcher: KafkaBatcher;
  private readonly writer: KafkaBatchWriter;

  private constructor(
    private readonly deps: KafkaIngestDeps,
    private readonly producer: MessageProducer,
    private readonly offsetReader: OffsetReader,
  ) {
    this.log = deps.logger.child({ component: 'kafka-ingest' });
    this.stalls = new StallCheck(
      {
        running: () => !this.stopping && this.consumer !== undefined,
        assigned: () => this.assigned,
        endOffsets: (topics) => this.offsetReader.endOffsets(topics).catch(() => undefined),
        position: (key) => this.positions.get(key) ?? 0n,
        holds: (topic, partition, key) => this.waitingForRoom.has(key) || this.batcher.holds(topic, partition),
        queuedTo: (key) => this.queuedTo.get(key),
        readAgain: (topic, partition, at) => {
          const key = partitionKey(topic, partition);
          this.queuedTo.delete(key);
          this.soughtBack.delete(key);
          this.consumer?.seek(topic, partition, String(at));
        },
      },
      this.log,
    );
    // Batches are counted where every source's are: when they commit on the store.
    deps.metrics.watch(deps.pipeline.store);
    const writer = new KafkaBatchWriter(deps.pipeline, new DeadLetterPublisher(producer), this.log);
    this.writer = writer;
    const { batchRows, batchBytes, batchWaitMs } = deps.settings;
    const limits = { rows: batchRows, bytes: Math.max(batchBytes * TRANSACTION_PARTITIONS, TRANSACTION_BYTES_FLOOR), waitMs: batchWaitMs, aheadRows: FAST_PATH_MIN_ROWS };
    this.batcher = new KafkaBatcher(writer, limits, this.positions, {
      committed: (chunks) => this.onCommitted(chunks),
      ahead: findAhead,
      dropped: (from) => this.readAgain(from),
    }, this.log);
  }

  /** Reads the stored offsets; joins no group yet, so that the service can hand out catchUpProbe() first. */
  static async create(deps: KafkaIngestDeps): Promise<KafkaIngest> {
    const { connection } = deps.settings;
    // Few producer retries: a DLQ send runs inside a DuckDB transaction, which must not hold the writer for long.
    const ingest = new KafkaIngest(deps, createProducer(connection, deps.logger, { retries: 2 }), createOffsetReader(connection, deps.logger));
    for (const [key, offset] of await loadStoredOffsets(deps.pipeline.store)) ingest.positions.set(key, offset);
    await deps.pipeline.prepare?.();
    return ingest;
  }

  static async start(deps: KafkaIngestDeps): Promise<KafkaIngest> {
    const ingest = await KafkaIngest.create(deps);
    ingest.run();
    return ingest;
  }

  /** Joins the consumer group; from here on it keeps consuming, through outages, until stop(). */
  run(): void {
    if (this.consumer) return;
    const { settings, logger } = this.deps;
    logger.info(
      {
        ...describeConnection(settings.connection),
        group_id: settings.groupId,
        topics: settings.topics,
        shard: `${settings.shard.index}/${settings.shard.count}`,
        batch_rows: settings.batchRows,
        batch_bytes: settings.batchBytes,
        batch_wait_ms: settings.batchWaitMs,
      },
      'Kafka consumer starting',
    );
    const handlers = {
      onAssigned: (a: ReadonlyMap<string, readonly number[]>) => this.onAssigned(a),
      onBatch: (b: SourceBatch, c: BatchControl) => this.onBatch(b, c),
      onPassed: (topic: string, partition: number, first: string, last: string, highWatermark: string) => this.onPassed(topic, partition, first, last, highWatermark),
      onRestart: () => this.deps.metrics.consumerRestarts.inc(),
    };
    this.consumer = startGroupConsumer(settings, handlers, logger);
    this.stallTimer = setInterval(() => void this.stalls.check(), this.deps.stallCheckMs ?? STALL_CHECK_MS);
    this.stallTimer.unref();
  }

  /** Next offset per partition as committed to DuckDB, keyed `topic#partition`. */
  committedOffsets(): ReadonlyMap<string, bigint> {
    return this.positions;
  }

  /** Next offset per partition as fetched: DuckDB's, or past it by what waits for the next transaction. */
  fetchedOffsets(): ReadonlyMap<string, bigint> {
    return new Map([...this.positions, ...this.queuedTo]);
  }

  /**
   * The partition count of the event topics (they all have the same), read
   * from Kafka once: a customer's shard is its partition modulo the shards.
   */
  async partitionCount(): Promise<number> {
    this.partitions ??= this.offsetReader.endOffsets(this.deps.settings.topics.slice(0, 1)).then(
      (ends) => ends.size,
      (err: unknown) => {
        this.partitions = undefined;
        throw err;
      },
    );
    return this.partitions;
  }

  /** For a refresh: the check that ingestion has reached every partition's end as it is now (kafka-catch-up.ts). */
  catchUpProbe(): () => Promise<() => Promise<boolean>> {
    const { topics, shard } = this.deps.settings;
    return catchUpProbe(
      {
        ends: async () => new Map([...(await this.offsetReader.endOffsets(topics))].filter(([k]) => ownsPartition(shard, Number(k.slice(k.lastIndexOf('#') + 1))))),
        position: (key) => this.positions.get(key),
        resets: (key) => this.resets.get(key) ?? 0,
      },
      this.log,
    );
  }

  async stop(): Promise<void> {
    // The transaction in hand commits before the group hears that this worker leaves.
    this.stopping = true;
    clearInterval(this.stallTimer);
    this.closing = this.batcher.close();
    await this.closing;
    await this.consumer?.stop();
    this.consumer = undefined;
    await this.producer.close();
    await this.offsetReader.close();
  }

  private onAssigned(assignment: ReadonlyMap<string, readonly number[]>): PartitionSeek[] {
    const { consumerLag, committedOffset } = this.deps.metrics;
    for (const [topic, partitions] of this.assigned) {
      for (const partition of partitions) {
        if (assignment.get(topic)?.includes(partition)) continue;
        consumerLag.remove({ topic, partition: String(partition) });
        committedOffset.remove({ topic, partition: String(partition) });
      }
    }
    this.assigned = new Map(assignment);
    this.soughtBack.clear();
    this.stalls.reset();
    // Every partition is read again from DuckDB's position; what was queued from the old assignment is fetched anew.
    this.batcher.drop();
    this.queuedTo.clear();
    for (const [topic, partitions] of assignment) {
      for (const partition of partitions) {
        const stored = this.positions.get(partitionKey(topic, partition));
        if (stored !== undefined) committedOffset.set({ topic, partition: String(partition) }, Number(stored));
      }
    }
    // No stored offset: read from 0, which the client turns into the log start when retention removed it.
    const seeks = [...assignment].flatMap(([topic, partitions]) =>
      partitions.map((partition) => ({ topic, partition, offset: String(this.positions.get(partitionKey(topic, partition)) ?? 0n) })),
    );
    this.log.info({ assignment: Object.fromEntries(assignment), seeks: seeks.map((s) => `${s.topic}#${s.partition}@${s.offset}`) }, 'partitions assigned');
    return seeks;
  }

  /**
   * Queues a fetched batch and lets the client fetch on. A batch fetched
   * before the queue was dropped (a rebalance, a failed write) is not queued:
   * its partition is read again from DuckDB's position.
   */
  private async onBatch(batch: SourceBatch, control: BatchControl): Promise<void> {
    const { topic, partition } = batch;
    const key = partitionKey(topic, partition);
    this.stalls.fetched(key, batch);
    let expected = this.expectedAt(key);
    if (expected !== undefined && BigInt(batch.highWatermark) < expected && this.batcher.writes(topic, partition)) {
      // The old topic's chunks being written would move the offset back up once they commit: they commit first.
      await withHeartbeats(control, () => this.batcher.written());
      expected = this.expectedAt(key);
    }
    if (expected !== undefined && BigInt(batch.highWatermark) < expected) expected = this.resetPastEnd(topic, partition, batch.highWatermark, expected, BigInt(batch.fetchedOffset));
    const generation = this.batcher.generation;
    let messages: readonly SourceMessage[] = batch.messages;
    if (expected !== undefined) {
      const fetched = BigInt(batch.fetchedOffset);
      if (fetched > expected && !this.soughtBack.has(key)) {
        // The client read from somewhere past what DuckDB holds: go back once, or events would be lost.
        this.soughtBack.add(key);
        this.log.warn({ topic, partition, fetched: batch.fetchedOffset, stored: String(expected) }, 'fetch position is past the stored offset; seeking back');
        control.seek(String(expected));
        return;
      }
      if (fetched > expected) this.log.warn({ topic, partition, from: String(expected), to: batch.fetchedOffset }, 'offsets no longer on the broker were skipped');
      messages = fromOffset(messages, expected);
    }
    const last = batch.messages.at(-1);
    if (this.stopping) {
      // Nothing more is queued; waiting here, rather than returning, keeps the client from fetching again meanwhile.
      await withHeartbeats(control, () => this.closing);
      return;
    }
    if (!last) return;
    const giveUp = (): boolean => generation !== this.batcher.generation || !control.isRunning() || control.isStale() || this.stopping;
    // Waits for room in the queue, and while the transaction in hand waits for its fast rows: this thread helps find
    // them, and the next fetch waits its turn. Both are asked again after either wait: a batch let in by the room a new
    // transaction made must still wait for that transaction's rows.
    let waited: Promise<void> | undefined;
    for (;;) {
      // A search already waited for is not waited for again, should it still be pending when asked.
      const pending = this.writer.rowsPending();
      const finding = pending === waited ? undefined : pending;
      if ((finding === undefined && this.batcher.hasRoom()) || giveUp()) break;
      waited = finding ?? waited;
      this.waitingForRoom.add(key);
      await withHeartbeats(control, () => finding ?? this.batcher.waitForRoom(giveUp)).finally(() => {
        this.waitingForRoom.delete(key);
      });
    }
    if (giveUp()) return;
    const chunks = [...boundedChunks(messages, this.deps.settings.batchRows, this.deps.settings.batchBytes)];
    // Records the client held back after the last message (a transaction's markers) end the batch's last chunk, or
    // make one of no messages when every message was queued before.
    const readTo = batch.readTo === undefined ? undefined : BigInt(batch.readTo);
    const queued = messages.length > 0 ? BigInt(last.offset) + 1n : expected;
    const passed = readTo !== undefined && (queued === undefined || readTo > queued) ? readTo : undefined;
    if (passed !== undefined && chunks.length === 0) chunks.push([]);
    chunks.forEach((chunk, i) => {
      this.batcher.add({ topic, partition, messages: chunk, highWatermark: batch.highWatermark, ...(passed !== undefined && i === chunks.length - 1 ? { readTo: passed } : {}) });
    });
    const next = passed ?? (messages.length > 0 ? queued : undefined);
    if (next !== undefined) this.queuedTo.set(key, next);
    control.markDone(passed === undefined ? last.offset : String(passed - 1n));
  }

  /**
   * Records of a partition that hold no event (a transaction's markers, an
   * aborted transaction's messages), which the client fetched and kept to
   * itself: when they begin where the partition's queue ends, the
   * partition's offset moves past them in the next transaction, so that a
   * partition ending in a marker is read to its end. Otherwise (they lie
   * past a gap) the offset stays, and what comes next is checked as ever.
   */
  private onPassed(topic: string, partition: number, first: string, last: string, highWatermark: string): void {
    // A partition revoked meanwhile is another worker's to move.
    if (this.stopping || !this.assigned.get(topic)?.includes(partition)) return;
    const key = partitionKey(topic, partition);
    const [from, readTo] = [BigInt(first), BigInt(last) + 1n];
    // A partition of no stored offset is read from 0 (onAssigned): records that begin past 0 lie past a gap, or were
    // fetched before a failed write sent the partition back to 0, and move nothing; unless the partition's log starts
    // with them (retention left nothing before), which the brokers are asked.
    if (this.expectedAt(key) === undefined && from > 0n) {
      void this.offsetReader.startOffsets([topic]).then(
        (starts) => {
          if (this.expectedAt(key) === undefined && starts.get(key) === from) this.passFrom(topic, partition, key, from, readTo, highWatermark);
        },
        (err: unknown) => this.log.debug({ err, topic, partition }, 'could not read where a partition starts; its markers wait for the next fetch'),
      );
      return;
    }
    let expected = this.expectedAt(key) ?? 0n;
    if (BigInt(highWatermark) < expected && this.batcher.writes(topic, partition)) {
      // As onBatch: the old topic's chunks being written commit first; then this is looked at again.
      void this.batcher.written().then(() => this.onPassed(topic, partition, first, last, highWatermark));
      return;
    }
    if (BigInt(highWatermark) < expected) expected = this.resetPastEnd(topic, partition, highWatermark, expected, from);
    if (from > expected || readTo <= expected) return;
    this.passFrom(topic, partition, key, from, readTo, highWatermark);
  }

  /** Queues the move of the partition's offset past records that hold no event, from `from` to `readTo`. */
  private passFrom(topic: string, partition: number, key: string, from: bigint, readTo: bigint, highWatermark: string): void {
    if (this.stopping || !this.assigned.get(topic)?.includes(partition)) return;
    this.stalls.fetched(key, { topic, partition, fetchedOffset: String(from), highWatermark, messages: [], readTo: String(readTo) });
    this.batcher.add({ topic, partition, messages: [], highWatermark, readTo });
    this.queuedTo.set(key, readTo);
  }

  /**
   * The partition ends before the offset the store holds: the topic was made
   * again (or a new leader's log was cut short), and its offsets from 0 are
   * new events, not ones read before. The partition is read from where the
   * client was sent (the log's start, as no stored offset is there); events
   * read again are only versions again. What was queued is dropped and read
   * again (the old topic's chunks must not move the offset back up), and the
   * catch-up check learns of the reset.
   */
  private resetPastEnd(topic: string, partition: number, highWatermark: string, stored: bigint, readingFrom: bigint): bigint {
    const key = partitionKey(topic, partition);
    this.log.warn(
      { topic, partition, high_watermark: highWatermark, stored: String(stored), reading_from: String(readingFrom) },
      "the stored offset is past the partition's end (was the topic made again?); reading the partition from where the client is",
    );
    this.readAgain(this.batcher.drop());
    this.positions.set(key, readingFrom);
    this.resets.set(key, (this.resets.get(key) ?? 0) + 1);
    return readingFrom;
  }

  /** After the queue was dropped: every partition is expected from DuckDB's position again, and those dropped are read again from it. */
  private readAgain(from: ReadonlyMap<string, { topic: string; partition: number; offset: bigint }>): void {
    this.queuedTo.clear();
    this.soughtBack.clear();
    for (const [key, { topic, partition, offset }] of from) {
      this.stalls.movedOn(key);
      this.consumer?.seek(topic, partition, String(this.positions.get(key) ?? offset));
    }
  }

  /** The partition's next offset to queue: the end of what is queued, or DuckDB's position; undefined before either. */
  private expectedAt(key: string): bigint | undefined {
    return this.queuedTo.get(key) ?? this.positions.get(key);
  }

  /** A transaction's chunks are in DuckDB: their positions are recorded, and their lag commits go to Kafka as one request. */
  private onCommitted(chunks: readonly CommittedChunk[]): void {
    for (const { chunk, next } of chunks) this.recordPosition(chunk.topic, chunk.partition, next, chunk.highWatermark ?? String(next));
    void this.consumer?.commitForLag(chunks.map(({ chunk, next }) => ({ topic: chunk.topic, partition: chunk.partition, offset: String(next) })));
  }

  private recordPosition(topic: string, partition: number, next: bigint, highWatermark: string): void {
    const labels = { topic, partition: String(partition) };
    this.deps.metrics.committedOffset.set(labels, Number(next));
    const lag = BigInt(highWatermark) - next;
    this.deps.metrics.consumerLag.set(labels, Number(lag > 0n ? lag : 0n));
  }
}
