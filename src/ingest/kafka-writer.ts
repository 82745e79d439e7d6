import type { Logger } from '../logger.js';
import { DeadLetterPublisher, DlqPublishError, type DeadMessage } from './dlq.js';
import { partitionKey, recordPoison, saveOffset } from './kafka-offsets.js';
import type { SourceMessage } from './kafka-source.js';
import type { IngestMetrics } from './metrics.js';
import type { IngestPipeline } from './pipeline.js';
import { dedupeKey } from './prepare.js';
import type { RawItem } from './types.js';

/** What the writer needs of the pipeline; tests put a failing one in its place. */
export type BatchIngester = Pick<IngestPipeline, 'ingest' | 'store'>;

/** More poison than this in a row, with nothing committed between, means the store is at fault, not the messages. */
const MAX_POISON_IN_A_ROW = 10;

const keyText = (m: SourceMessage): string | null => (m.key === null ? null : m.key.toString('utf8'));
const valueText = (m: SourceMessage): string => (m.value === null ? '' : m.value.toString('utf8'));

/**
 * Writes messages of one partition into DuckDB, one transaction per call:
 * the rows, the dead letters (table and DLQ topic) and the partition's next
 * offset commit together or not at all.
 */
export class KafkaBatchWriter {
  private poisonInARow = 0;

  constructor(
    private readonly pipeline: BatchIngester,
    private readonly dlq: DeadLetterPublisher,
    private readonly metrics: IngestMetrics,
    private readonly logger: Logger,
  ) {}

  /**
   * Returns the partition's next offset. When the store rejects the batch for
   * a reason that is not an outage, the batch is halved until the message at
   * fault stands alone; that message becomes a dead letter and the rest goes
   * in, so one poison message never stalls its partition.
   */
  async write(topic: string, partition: number, messages: readonly SourceMessage[]): Promise<bigint> {
    try {
      return await this.commit(topic, partition, messages);
    } catch (err) {
      if (err instanceof DlqPublishError) throw err;
      if (messages.length === 1) return this.commitPoison(topic, partition, messages[0] as SourceMessage, err);
      const half = Math.ceil(messages.length / 2);
      this.logger.warn(
        { err, topic, partition, firstOffset: messages[0]?.offset, rows: messages.length },
        'Kafka batch rejected by the store; splitting it to isolate the message at fault',
      );
      await this.write(topic, partition, messages.slice(0, half));
      return this.write(topic, partition, messages.slice(half));
    }
  }

  private async commit(topic: string, partition: number, messages: readonly SourceMessage[]): Promise<bigint> {
    const byOffset = new Map(messages.map((m) => [m.offset, m]));
    const items: RawItem[] = messages.map((m) => ({
      raw: valueText(m),
      ref: { source: 'kafka', sourceRef: topic, partition, offset: m.offset, key: keyText(m) },
    }));
    const nextOffset = BigInt((messages.at(-1) as SourceMessage).offset) + 1n;
    const started = performance.now();
    const result = await this.pipeline.ingest(items, async (conn, r) => {
      await saveOffset(conn, topic, partition, nextOffset);
      const dead: DeadMessage[] = r.deadLetters.flatMap((d) => {
        const message = d.ref.offset === undefined ? undefined : byOffset.get(d.ref.offset);
        return message ? [{ message, reason: d.reason }] : [];
      });
      // Last in the transaction: nothing after it can fail and undo rows whose dead letters are out.
      await this.dlq.publish(topic, partition, dead);
    });
    const seconds = (performance.now() - started) / 1000;
    this.poisonInARow = 0;
    this.metrics.record(result, 'kafka', seconds);
    this.logger.info(
      {
        topic,
        partition,
        batch: `${partitionKey(topic, partition)}@${messages[0]?.offset}`,
        firstOffset: messages[0]?.offset,
        nextOffset: String(nextOffset),
        rows: messages.length,
        inserted: result.inserted,
        updated: result.updated,
        deleted: result.deleted,
        deadLetters: result.deadLetters.length,
        ms: Math.round(seconds * 1000),
      },
      'Kafka batch committed',
    );
    return nextOffset;
  }

  private async commitPoison(topic: string, partition: number, message: SourceMessage, cause: unknown): Promise<bigint> {
    // Stays tripped until a batch commits, so a store fault stalls the partition instead of emptying it into dead letters.
    if (++this.poisonInARow > MAX_POISON_IN_A_ROW) {
      throw new Error(`the store rejected ${MAX_POISON_IN_A_ROW} events in a row; retrying instead of dead-lettering more`, { cause });
    }
    const reason = `store rejected the event: ${(cause as Error).message ?? String(cause)}`.slice(0, 2000);
    const offset = BigInt(message.offset);
    const raw = valueText(message);
    const ref = { source: 'kafka' as const, sourceRef: topic, partition, offset: message.offset };
    // If even this small write fails, the store itself is at fault: the error goes up and the batch is retried.
    await this.pipeline.store.write(async (conn) => {
      await recordPoison(conn, { topic, partition, offset, key: keyText(message), raw, reason, dedupeKey: dedupeKey(ref, raw) });
      await saveOffset(conn, topic, partition, offset + 1n);
      await this.dlq.publish(topic, partition, [{ message, reason }]);
    });
    this.metrics.deadLetters.inc({ source: 'kafka' });
    this.logger.error({ err: cause, topic, partition, offset: message.offset }, 'poison message moved to the dead letters');
    return offset + 1n;
  }
}
