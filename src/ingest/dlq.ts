import type { Headers, MessageProducer, OutgoingMessage, SourceMessage } from './kafka-types.js';
import { dlqTopicFor } from './kafka-settings.js';
import { affordErrorCausedBy } from '../domain/errors.js';

/** Headers a dead letter carries on `<topic>.dlq`, besides the original key, value and headers. */
export const DLQ_HEADERS = {
  reason: 'afford-dlq-reason',
  topic: 'afford-dlq-source-topic',
  partition: 'afford-dlq-source-partition',
  offset: 'afford-dlq-source-offset',
} as const;

export interface DeadMessage {
  topic: string;
  partition: number;
  message: SourceMessage;
  reason: string;
}

/**
 * Publishes dead letters to `<topic>.dlq` from inside the batch's DuckDB
 * transaction, before it commits: a crash in between can repeat a DLQ
 * message but never lose one. The source coordinates in the headers let a
 * reader of the DLQ drop such repeats.
 */
export class DeadLetterPublisher {
  constructor(private readonly producer: MessageProducer) {}

  async publish(letters: readonly DeadMessage[]): Promise<void> {
    if (letters.length === 0) return;
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const { topic, partition, message, reason } of letters) {
      const headers: Headers = {
        ...message.headers,
        [DLQ_HEADERS.reason]: reason,
        [DLQ_HEADERS.topic]: topic,
        [DLQ_HEADERS.partition]: String(partition),
        [DLQ_HEADERS.offset]: message.offset,
      };
      const list = byTopic.get(dlqTopicFor(topic)) ?? [];
      list.push({ key: message.key, value: message.value, headers });
      byTopic.set(dlqTopicFor(topic), list);
    }
    try {
      await this.producer.send([...byTopic].map(([topic, messages]) => ({ topic, messages })));
    } catch (err) {
      // DLQ_PUBLISH_FAILED (usually a broker outage): the batch must roll back and be retried.
      throw affordErrorCausedBy(err, 'DLQ_PUBLISH_FAILED', [...byTopic.keys()].join(', '), (err as Error).message ?? String(err));
    }
  }
}
