import type { Headers, MessageProducer, OutgoingMessage, SourceMessage } from './kafka-types.js';
import { dlqTopicFor } from './kafka-settings.js';
import { affordErrorCausedBy } from '../domain/errors.js';

/** Headers a dead letter carries on `<topic>.dlq`, besides the original key, value and headers. */
export const DLQ_HEADERS = {
  reason: 'afford-dlq-reason',
  topic: 'afford-dlq-source-topic',
  partition: 'afford-dlq-source-partition',
  offset: 'afford-dlq-source-offset',
  /** Set only on a copy whose value was cut (see VALUE_BYTES): the value's whole length in bytes. */
  valueBytes: 'afford-dlq-value-bytes',
} as const;

/**
 * Bytes of messages in one produce request at most. kafkajs writes a
 * request's messages for one partition as one record batch, and a broker
 * refuses a batch over its `message.max.bytes` (some 1 MB by default)
 * without a retry: a transaction with many dead letters, sent whole, was
 * refused every time it was tried again, and its shard stopped.
 */
const REQUEST_BYTES = 512 * 1024;
/**
 * A dead letter's value is copied to the DLQ up to this many bytes; past it
 * the copy is cut, and `afford-dlq-value-bytes` gives the value's length.
 * The dead letter in the store keeps what a dead letter keeps.
 */
const VALUE_BYTES = 256 * 1024;
/**
 * How long a publish may take before the batch gives up and rolls back. It
 * runs inside the batch's transaction, holding the one writer: with the
 * brokers unreachable, kafkajs's own retries of its connection took minutes.
 */
const PUBLISH_TIMEOUT_MS = 15_000;

/** About the bytes the headers take in a record (their names and values; an array's values added up). */
function headerBytes(headers: Headers): number {
  let n = 0;
  for (const [name, value] of Object.entries(headers)) {
    n += Buffer.byteLength(name);
    for (const v of Array.isArray(value) ? value : [value]) n += v === undefined ? 0 : typeof v === 'string' ? Buffer.byteLength(v) : v.length;
  }
  return n;
}

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
  constructor(
    private readonly producer: MessageProducer,
    private readonly limits: { requestBytes: number; valueBytes: number; timeoutMs: number } = {
      requestBytes: REQUEST_BYTES,
      valueBytes: VALUE_BYTES,
      timeoutMs: PUBLISH_TIMEOUT_MS,
    },
  ) {}

  async publish(letters: readonly DeadMessage[]): Promise<void> {
    if (letters.length === 0) return;
    const requests: { topic: string; messages: OutgoingMessage[] }[][] = [];
    let request = new Map<string, OutgoingMessage[]>();
    let bytes = 0;
    const endRequest = (): void => void requests.push([...request].map(([topic, messages]) => ({ topic, messages })));
    for (const { topic, partition, message, reason } of letters) {
      const headers: Headers = {
        ...message.headers,
        [DLQ_HEADERS.reason]: reason,
        [DLQ_HEADERS.topic]: topic,
        [DLQ_HEADERS.partition]: String(partition),
        [DLQ_HEADERS.offset]: message.offset,
      };
      // The value as it was sent (a Schema Registry's prefix included).
      const sent = message.sent ?? message.value;
      const value = sent === null || sent.length <= this.limits.valueBytes ? sent : sent.subarray(0, this.limits.valueBytes);
      if (value !== sent) headers[DLQ_HEADERS.valueBytes] = String(sent?.length);
      const size = (value?.length ?? 0) + (message.key?.length ?? 0) + headerBytes(headers);
      if (bytes > 0 && bytes + size > this.limits.requestBytes) {
        endRequest();
        request = new Map();
        bytes = 0;
      }
      const list = request.get(dlqTopicFor(topic)) ?? [];
      list.push({ key: message.key, value, headers });
      request.set(dlqTopicFor(topic), list);
      bytes += size;
    }
    endRequest();
    const topics = [...new Set(letters.map((l) => dlqTopicFor(l.topic)))].join(', ');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the brokers in ${this.limits.timeoutMs} ms`)), this.limits.timeoutMs);
    });
    try {
      // In order, one request after another: each is within what a broker takes in one record batch.
      await Promise.race([(async () => {
        for (const topicMessages of requests) await this.producer.send(topicMessages);
      })(), timedOut]);
    } catch (err) {
      // DLQ_PUBLISH_FAILED (usually a broker outage): the batch must roll back and be retried.
      throw affordErrorCausedBy(err, 'DLQ_PUBLISH_FAILED', topics, (err as Error).message ?? String(err));
    } finally {
      clearTimeout(timer);
    }
  }
}
