import { LIMITS } from '../domain/event-limits.js';
import type { Logger } from '../logger.js';
import { DeadLetterPublisher, DlqPublishError, type DeadMessage } from './dlq.js';
import { partitionKey, recordPoison, saveOffset } from './kafka-offsets.js';
import type { SourceMessage } from './kafka-types.js';
import type { IngestMetrics } from './metrics.js';
import type { IngestPipeline } from './pipeline.js';
import { storeRejectionReason } from './isolate.js';
import { dedupeKey } from './prepare.js';
import type { RawItem, SourceRef } from './types.js';

/** What the writer needs of the pipeline; tests put a failing one in its place. */
export type BatchIngester = Pick<IngestPipeline, 'ingest' | 'store'>;

/** Consecutive messages of one partition, in offset order. */
export interface PartitionChunk {
  topic: string;
  partition: number;
  messages: readonly SourceMessage[];
}

/** More poison than this in a row, with nothing committed between, means the store is at fault, not the messages. */
const MAX_POISON_IN_A_ROW = 10;

const keyText = (m: SourceMessage): string | null => (m.key === null ? null : m.key.toString('utf8'));
const valueText = (m: SourceMessage): string => (m.value === null ? '' : m.value.toString('utf8'));
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A message as the pipeline takes it: a value that is not UTF-8 is refused, not stored with replacement characters. */
function rawItemOf(m: SourceMessage, ref: SourceRef): RawItem {
  if (m.value === null) return { raw: '', ref };
  try {
    return { raw: strictUtf8.decode(m.value), ref };
  } catch {
    return { raw: valueText(m).slice(0, LIMITS.rawPrefixChars), ref, refused: 'the message is not valid UTF-8' };
  }
}
export const nextOffsetOf = (chunk: PartitionChunk): bigint => BigInt((chunk.messages.at(-1) as SourceMessage).offset) + 1n;

/**
 * Writes Kafka messages into DuckDB: in one transaction, the rows, the dead
 * letters (table and DLQ topics) and the next offset of every partition
 * involved commit together or not at all.
 */
export class KafkaBatchWriter {
  private poisonInARow = 0;
  private batchSeq = 0;

  constructor(
    private readonly pipeline: BatchIngester,
    private readonly dlq: DeadLetterPublisher,
    private readonly metrics: IngestMetrics,
    private readonly logger: Logger,
  ) {}

  /** Commits chunks of any partitions in one transaction; throws if the store or the DLQ rejects it. */
  async commit(chunks: readonly PartitionChunk[]): Promise<void> {
    const byRef = new Map<string, SourceMessage>();
    const items: RawItem[] = [];
    for (const { topic, partition, messages } of chunks) {
      for (const m of messages) {
        byRef.set(`${partitionKey(topic, partition)}@${m.offset}`, m);
        items.push(rawItemOf(m, { source: 'kafka', sourceRef: topic, partition, offset: m.offset, key: keyText(m) }));
      }
    }
    const started = performance.now();
    const result = await this.pipeline.ingest(items, async (conn, r) => {
      for (const chunk of chunks) await saveOffset(conn, chunk.topic, chunk.partition, nextOffsetOf(chunk));
      const dead: DeadMessage[] = r.deadLetters.flatMap((d) => {
        const message = byRef.get(`${partitionKey(d.ref.sourceRef, d.ref.partition ?? -1)}@${d.ref.offset}`);
        return message ? [{ topic: d.ref.sourceRef, partition: d.ref.partition ?? -1, message, reason: d.reason }] : [];
      });
      // Last in the transaction: nothing after it can fail and undo rows whose dead letters are out.
      await this.dlq.publish(dead);
    });
    const seconds = (performance.now() - started) / 1000;
    this.poisonInARow = 0;
    this.metrics.record(result, 'kafka', seconds);
    const single = chunks.length === 1 ? chunks[0] : undefined;
    this.logger.info(
      {
        batch: ++this.batchSeq,
        topic: single?.topic,
        partition: single?.partition,
        offsets: Object.fromEntries(chunks.map((c) => [partitionKey(c.topic, c.partition), `${c.messages[0]?.offset}..${nextOffsetOf(c)}`])),
        rows: items.length,
        inserted: result.inserted,
        updated: result.updated,
        deleted: result.deleted,
        deadLetters: result.deadLetters.length,
        ms: Math.round(seconds * 1000),
      },
      'Kafka batch committed',
    );
  }

  /**
   * Commits one partition's chunk, whatever is in it. The pipeline already
   * moves an event the store rejects to the dead letters; this is for a
   * commit that fails otherwise, but for one message only (for example in a
   * source hook): the chunk is halved until the message at fault stands
   * alone; that message becomes a dead letter and the rest goes in, so one
   * poison message never stalls its partition.
   */
  async write(chunk: PartitionChunk): Promise<void> {
    try {
      await this.commit([chunk]);
    } catch (err) {
      if (err instanceof DlqPublishError) throw err;
      const { topic, partition, messages } = chunk;
      if (messages.length === 1) return this.commitPoison(topic, partition, messages[0] as SourceMessage, err);
      this.logger.warn(
        { err, topic, partition, firstOffset: messages[0]?.offset, rows: messages.length },
        'Kafka batch rejected by the store; splitting it to isolate the message at fault',
      );
      const half = Math.ceil(messages.length / 2);
      await this.write({ topic, partition, messages: messages.slice(0, half) });
      await this.write({ topic, partition, messages: messages.slice(half) });
    }
  }

  private async commitPoison(topic: string, partition: number, message: SourceMessage, cause: unknown): Promise<void> {
    // Stays tripped until a batch commits, so a store fault stalls the partition instead of emptying it into dead letters.
    if (++this.poisonInARow > MAX_POISON_IN_A_ROW) {
      throw new Error(`the store rejected ${MAX_POISON_IN_A_ROW} events in a row; retrying instead of dead-lettering more`, { cause });
    }
    const reason = storeRejectionReason(cause);
    const offset = BigInt(message.offset);
    const raw = valueText(message);
    const ref = { source: 'kafka' as const, sourceRef: topic, partition, offset: message.offset };
    // If even this small write fails, the store itself is at fault: the error goes up and the batch is retried.
    await this.pipeline.store.write(async (conn) => {
      await recordPoison(conn, { topic, partition, offset, key: keyText(message), raw, reason, dedupeKey: dedupeKey(ref, raw) });
      await saveOffset(conn, topic, partition, offset + 1n);
      await this.dlq.publish([{ topic, partition, message, reason }]);
    });
    this.metrics.deadLetters.inc({ source: 'kafka' });
    this.logger.error({ err: cause, topic, partition, offset: message.offset }, 'poison message moved to the dead letters');
  }
}
