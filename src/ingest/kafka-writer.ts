import { LIMITS } from '../domain/event-limits.js';
import type { Logger } from '../logger.js';
import { errorCode } from '../domain/errors.js';
import type { DeadLetterPublisher, DeadMessage } from './dlq.js';
import { partitionKey, saveOffsets } from './kafka-offsets.js';
import type { SourceMessage } from './kafka-types.js';
import { FAST_PATH_MIN_ROWS, type IngestPipeline } from './pipeline.js';
import { foundAhead } from './kafka-found-rows.js';
import { strictText } from './packed-texts.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BatchResult, RawItem, SourceRef } from './types.js';

/** What the writer needs of the pipeline; tests put a slow one in its place. */
export type BatchIngester = Pick<IngestPipeline, 'ingest' | 'store'> & Partial<Pick<IngestPipeline, 'prepare'>>;

/** Consecutive messages of one partition, in offset order. */
export interface PartitionChunk {
  topic: string;
  partition: number;
  messages: readonly SourceMessage[];
  /** The partition's end when these were fetched, for the lag metric. */
  highWatermark?: string;
  /**
   * The offset after the chunk's last record, when records past its last
   * message hold no event (transaction markers, an aborted transaction's
   * messages): the partition's next offset once the chunk is written. A
   * chunk of no messages has one, and moves only the offset.
   */
  readTo?: bigint;
}

/** What one write of several partitions' chunks came to. */
export interface WriteOutcome {
  committed: PartitionChunk[];
  /** Chunks that could not be written, and why: the consumer reads them again later. */
  failed: PartitionChunk[];
  error?: unknown;
}

const keyText = (m: SourceMessage): string | null => (m.key === null ? null : m.key.toString('utf8'));
const valueText = (m: SourceMessage): string => (m.value === null ? '' : m.value.toString('utf8'));

/**
 * A message as the pipeline takes it, decoded only when asked for: the fast
 * rows of a large transaction are found from the messages' bytes on the
 * fast path's worker thread, so that this thread, which also decodes what
 * the brokers send, makes strings only of the few messages the schema path
 * or a dead letter needs. A value that is not UTF-8 is refused, not stored
 * with replacement characters.
 */
class KafkaItem implements RawItem {
  private text: string | undefined;
  private refusal: string | undefined;
  private source: SourceRef | undefined;

  constructor(
    private readonly chunk: PartitionChunk,
    private readonly message: SourceMessage,
  ) {}

  get raw(): string {
    return this.text ?? this.decode();
  }

  get refused(): string | undefined {
    if (this.text === undefined) this.decode();
    return this.refusal;
  }

  get ref(): SourceRef {
    const { chunk, message } = this;
    this.source ??= { source: 'kafka', sourceRef: chunk.topic, partition: chunk.partition, offset: message.offset, key: keyText(message) };
    return this.source;
  }

  private decode(): string {
    const m = this.message;
    if (m.refused !== undefined) this.refusal = m.refused;
    if (m.value === null) return (this.text = '');
    const text = strictText(m.value);
    // A reason the message came with (an Avro value, say) says more than its bytes' encoding.
    if (text === null) this.refusal ??= 'the message is not valid UTF-8';
    this.text = text ?? valueText(m).slice(0, LIMITS.rawPrefixChars);
    return this.text;
  }
}

/** The message at `offset` in messages of ascending offsets, by bisection. */
function messageAt(messages: readonly SourceMessage[], offset: bigint): SourceMessage | undefined {
  let lo = 0;
  let hi = messages.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = messages[mid] as SourceMessage;
    const at = BigInt(m.offset);
    if (at === offset) return m;
    if (at < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The message of the chunks at `ref` (its partition and offset): a transaction holds tens of thousands of messages and a few dead letters. */
function messageOf(chunks: readonly PartitionChunk[], ref: SourceRef): SourceMessage | undefined {
  if (ref.offset === undefined) return undefined;
  const offset = BigInt(ref.offset);
  for (const chunk of chunks) {
    if (chunk.topic !== ref.sourceRef || chunk.partition !== ref.partition) continue;
    const m = messageAt(chunk.messages, offset);
    if (m) return m;
  }
  return undefined;
}

export function nextOffsetOf(chunk: PartitionChunk): bigint {
  const last = chunk.messages.at(-1);
  const afterLast = last === undefined ? undefined : BigInt(last.offset) + 1n;
  if (chunk.readTo === undefined) {
    if (afterLast === undefined) throw new Error(`a chunk of ${partitionKey(chunk.topic, chunk.partition)} holds no message and no offset to read to`);
    return afterLast;
  }
  return afterLast === undefined || chunk.readTo > afterLast ? chunk.readTo : afterLast;
}

/** Each partition's next offset once the chunks are written, as the store keeps them. */
const nextOffsets = (chunks: readonly PartitionChunk[]) => chunks.map((c) => ({ topic: c.topic, partition: c.partition, nextOffset: nextOffsetOf(c) }));

/** The offsets a transaction covers, as its log lines give them: `topic#partition` to `first..next`. */
const offsetsOf = (chunks: readonly PartitionChunk[]): Record<string, string> =>
  Object.fromEntries(chunks.map((c) => [partitionKey(c.topic, c.partition), `${c.messages[0]?.offset ?? nextOffsetOf(c)}..${nextOffsetOf(c)}`]));

/**
 * A transaction still open after this long is logged as slow, and again each
 * time as long again has passed: a normal one of 25,000 events takes about a
 * second, and a writer that waits on the store or on the DLQ's brokers
 * would otherwise be silent until it gave up.
 */
export const SLOW_TRANSACTION_MS = 10_000;

/**
 * Writes Kafka messages into DuckDB: in one transaction, the rows, the dead
 * letters (table and DLQ topics) and the next offset of every partition
 * involved commit together or not at all. Every retry of a Kafka write lives
 * here: an event the store rejects is isolated by the pipeline; a whole
 * transaction that fails is tried again one partition at a time.
 */
export class KafkaBatchWriter {
  private batchSeq = 0;
  /** Settles once the fast rows of the transaction in hand are found; undefined when it awaits none. */
  private finding: Promise<void> | undefined;

  constructor(
    private readonly pipeline: BatchIngester,
    private readonly dlq: DeadLetterPublisher,
    private readonly logger: Logger,
    private readonly slowAfterMs: number = SLOW_TRANSACTION_MS,
  ) {}

  /**
   * While the transaction in hand waits for its fast rows, a promise that
   * settles once they are found: the consumer holds the next fetches back
   * until then, since this thread helps find them (see pipeline.ingest),
   * and decoding a fetch meanwhile takes the core they need.
   */
  rowsPending(): Promise<void> | undefined {
    return this.finding;
  }

  /**
   * Commits chunks of distinct partitions together; when that fails as a
   * whole, each chunk alone, so that a fault in one partition's chunk holds
   * back only that partition. A DLQ that cannot be reached fails them all:
   * trying them one by one would only wait on the brokers again.
   */
  async write(chunks: readonly PartitionChunk[]): Promise<WriteOutcome> {
    let groupError: unknown;
    try {
      await this.commit(chunks);
      return { committed: [...chunks], failed: [] };
    } catch (err) {
      if (errorCode(err) === 'DLQ_PUBLISH_FAILED' || chunks.length === 1) return { committed: [], failed: [...chunks], error: err };
      groupError = err;
    }
    const outcome: WriteOutcome = { committed: [], failed: [], error: groupError };
    for (const chunk of chunks) {
      try {
        await this.commit([chunk]);
        outcome.committed.push(chunk);
      } catch (err) {
        outcome.failed.push(chunk);
        outcome.error = err;
      }
    }
    return outcome;
  }

  /**
   * Commits chunks of any partitions in one transaction. An event the store
   * rejects is found and dead-lettered by the pipeline, which then commits
   * the rest with the offsets once, so a poison message never stalls its
   * partition. This throws only when the store or the DLQ fails as a whole;
   * the consumer then retries from the committed offsets. The fast rows of
   * the messages were found while they were queued (findAhead), so the
   * pipeline need not wait for them; a message is decoded here only if the
   * pipeline reads it (KafkaItem).
   */
  async commit(chunks: readonly PartitionChunk[]): Promise<void> {
    const items: RawItem[] = [];
    const messages: SourceMessage[] = [];
    for (const chunk of chunks) {
      for (const m of chunk.messages) {
        items.push(new KafkaItem(chunk, m));
        messages.push(m);
      }
    }
    if (items.length === 0) {
      // Offsets only (records that hold no event, such as a transaction's markers): nothing for the pipeline to write,
      // its hooks to hear of, or its metrics to count as a batch.
      await this.pipeline.store.write((conn) => saveOffsets(conn, nextOffsets(chunks)));
      this.logger.info({ batch: ++this.batchSeq, offsets: offsetsOf(chunks), rows: 0 }, 'Kafka batch committed');
      return;
    }
    const found = items.length >= FAST_PATH_MIN_ROWS ? foundAhead(messages) : undefined;
    // Pending until the rows are found (or their search fails), and no longer: the consumer waits on it.
    const finding = found?.then(
      () => undefined,
      () => undefined,
    );
    this.finding = finding;
    void finding?.then(() => {
      if (this.finding === finding) this.finding = undefined;
    });
    const started = performance.now();
    // Where the transaction is, for the slow-transaction warning.
    let step = 'writing the rows (or waiting for the store)';
    const hook = async (conn: DuckDBConnection, r: BatchResult): Promise<void> => {
      step = 'saving the offsets';
      await saveOffsets(conn, nextOffsets(chunks));
      // The original message of each dead letter, for the DLQ.
      const dead: DeadMessage[] = r.deadLetters.flatMap((d) => {
        const message = messageOf(chunks, d.ref);
        return message ? [{ topic: d.ref.sourceRef, partition: d.ref.partition ?? -1, message, reason: d.reason }] : [];
      });
      step = `publishing ${dead.length} dead letter${dead.length === 1 ? '' : 's'} to the DLQ`;
      // Last in the transaction: nothing after it can fail and undo rows whose dead letters are out.
      await this.dlq.publish(dead);
      step = 'committing';
    };
    const slow = setInterval(() => {
      this.logger.warn({ rows: items.length, offsets: offsetsOf(chunks), step, ms: Math.round(performance.now() - started) }, 'a Kafka transaction is taking long');
    }, this.slowAfterMs);
    let result: BatchResult;
    try {
      result = await this.pipeline.ingest(items, hook, found);
    } finally {
      clearInterval(slow);
      if (this.finding === finding) this.finding = undefined;
    }
    const seconds = (performance.now() - started) / 1000;
    const single = chunks.length === 1 ? chunks[0] : undefined;
    this.logger.info(
      {
        batch: ++this.batchSeq,
        topic: single?.topic,
        partition: single?.partition,
        offsets: offsetsOf(chunks),
        rows: items.length,
        inserted: result.inserted,
        updated: result.updated,
        deleted: result.deleted,
        dead_letters: result.deadLetters.length,
        ms: Math.round(seconds * 1000),
      },
      'Kafka batch committed',
    );
  }
}
