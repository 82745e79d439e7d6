import type { Logger } from '../logger.js';
import { DeadLetterPublisher } from './dlq.js';
import { loadStoredOffsets, partitionKey } from './kafka-offsets.js';
import { describeConnection, type KafkaIngestSettings } from './kafka-settings.js';
import { createOffsetReader, createProducer, startGroupConsumer } from './kafka-source.js';
import type { BatchControl, GroupConsumer, MessageProducer, OffsetReader, PartitionSeek, SourceBatch, SourceMessage } from './kafka-types.js';
import { GroupCommitter } from './kafka-group-commit.js';
import { KafkaBatchWriter, nextOffsetOf, type BatchIngester } from './kafka-writer.js';
import type { IngestMetrics } from './metrics.js';
import { ownsPartition } from './shard-assigner.js';

export interface KafkaIngestDeps {
  pipeline: BatchIngester;
  metrics: IngestMetrics;
  logger: Logger;
  settings: KafkaIngestSettings;
}

/** Splits a fetched batch into DuckDB transactions bounded in rows and bytes. */
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

/** Keeps the group membership alive while one long transaction runs. */
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
 */
export class KafkaIngest {
  private readonly positions = new Map<string, bigint>();
  private readonly soughtBack = new Set<string>();
  private readonly partitionTurns = new Map<string, Promise<void>>();
  private assigned = new Map<string, readonly number[]>();
  private consumer: GroupConsumer | undefined;
  private readonly log: Logger;
  private readonly committer: GroupCommitter;

  private constructor(
    private readonly deps: KafkaIngestDeps,
    private readonly producer: MessageProducer,
    private readonly offsetReader: OffsetReader,
  ) {
    this.log = deps.logger.child({ component: 'kafka-ingest' });
    // Batches are counted where every source's are: when they commit on the store.
    deps.metrics.watch(deps.pipeline.store);
    const writer = new KafkaBatchWriter(deps.pipeline, new DeadLetterPublisher(producer), this.log);
    this.committer = new GroupCommitter(writer, deps.settings.batchRows);
  }

  /** Reads the stored offsets; joins no group yet, so that the service can hand out catchUpProbe() first. */
  static async create(deps: KafkaIngestDeps): Promise<KafkaIngest> {
    const { connection } = deps.settings;
    // Few producer retries: a DLQ send runs inside a DuckDB transaction, which must not hold the writer for long.
    const ingest = new KafkaIngest(deps, createProducer(connection, deps.logger, { retries: 2 }), createOffsetReader(connection, deps.logger));
    for (const [key, offset] of await loadStoredOffsets(deps.pipeline.store)) ingest.positions.set(key, offset);
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
      },
      'Kafka consumer starting',
    );
    const handlers = {
      onAssigned: (a: ReadonlyMap<string, readonly number[]>) => this.onAssigned(a),
      onBatch: (b: SourceBatch, c: BatchControl) => this.onBatch(b, c),
      onRestart: () => this.deps.metrics.consumerRestarts.inc(),
    };
    this.consumer = startGroupConsumer(settings, handlers, logger);
  }

  /** Next offset per partition as committed to DuckDB, keyed `topic#partition`. */
  committedOffsets(): ReadonlyMap<string, bigint> {
    return this.positions;
  }

  /**
   * For a refresh (src/tasks/catch-up.ts): notes the end of every partition of
   * this shard now; the check holds once DuckDB has reached them all. While
   * the brokers cannot be asked, the check keeps asking and says no.
   */
  catchUpProbe(): () => Promise<() => Promise<boolean>> {
    const { topics, shard } = this.deps.settings;
    const ownEnds = async (): Promise<Map<string, bigint>> =>
      new Map([...(await this.offsetReader.endOffsets(topics))].filter(([k]) => ownsPartition(shard, Number(k.slice(k.lastIndexOf('#') + 1)))));
    return async () => {
      let ends = await ownEnds().catch((err: unknown) => {
        this.log.warn({ err }, 'could not read partition ends for a catch-up check; will retry');
        return undefined;
      });
      return async () => {
        ends ??= await ownEnds().catch(() => undefined);
        return ends !== undefined && [...ends].every(([k, end]) => end === 0n || (this.positions.get(k) ?? 0n) >= end);
      };
    };
  }

  async stop(): Promise<void> {
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
   * One batch of a partition at a time, even across a rebalance: a batch of
   * the new generation waits until the old one's transaction has committed,
   * so that it filters against the offset that transaction stored.
   */
  private onBatch(batch: SourceBatch, control: BatchControl): Promise<void> {
    const key = partitionKey(batch.topic, batch.partition);
    const previous = this.partitionTurns.get(key) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(() => this.consumeBatch(batch, control));
    this.partitionTurns.set(key, turn);
    return turn;
  }

  private async consumeBatch(batch: SourceBatch, control: BatchControl): Promise<void> {
    const { topic, partition } = batch;
    const key = partitionKey(topic, partition);
    const stored = this.positions.get(key);
    let messages = batch.messages;
    if (stored !== undefined) {
      const fetched = BigInt(batch.fetchedOffset);
      if (fetched > stored && !this.soughtBack.has(key)) {
        // The client read from somewhere past what DuckDB holds: go back once, or events would be lost.
        this.soughtBack.add(key);
        this.log.warn({ topic, partition, fetched: batch.fetchedOffset, stored: String(stored) }, 'fetch position is past the stored offset; seeking back');
        control.seek(String(stored));
        return;
      }
      if (fetched > stored) this.log.warn({ topic, partition, from: String(stored), to: batch.fetchedOffset }, 'offsets no longer on the broker were skipped');
      if (BigInt(batch.highWatermark) < stored) {
        this.log.warn({ topic, partition, high_watermark: batch.highWatermark, stored: String(stored) }, 'partition is shorter than the stored offset: was the topic recreated?');
      }
      messages = messages.filter((m) => BigInt(m.offset) >= stored);
      const last = batch.messages.at(-1);
      if (messages.length === 0 && last) control.markDone(last.offset);
    }
    for (const chunk of boundedChunks(messages, this.deps.settings.batchRows, this.deps.settings.batchBytes)) {
      if (!control.isRunning() || control.isStale()) break;
      const part = { topic, partition, messages: chunk };
      await withHeartbeats(control, () => this.committer.submit(part));
      const next = nextOffsetOf(part);
      this.positions.set(key, next);
      control.markDone((chunk.at(-1) as SourceMessage).offset);
      this.recordPosition(topic, partition, next, batch.highWatermark);
      await control.commitForLag(String(next));
      await control.heartbeat();
    }
  }

  private recordPosition(topic: string, partition: number, next: bigint, highWatermark: string): void {
    const labels = { topic, partition: String(partition) };
    this.deps.metrics.committedOffset.set(labels, Number(next));
    const lag = BigInt(highWatermark) - next;
    this.deps.metrics.consumerLag.set(labels, Number(lag > 0n ? lag : 0n));
  }
}
