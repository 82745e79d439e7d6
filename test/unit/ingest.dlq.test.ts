import { describe, expect, it } from 'vitest';
import { DLQ_HEADERS, DeadLetterPublisher, type DeadMessage } from '../../src/ingest/dlq.js';
import { errorCode } from '../../src/domain/errors.js';
import type { MessageProducer, OutgoingMessage } from '../../src/ingest/kafka-types.js';

/** The bytes a request holds for one topic, as a broker counts its record batch: keys, values and headers. */
const requestBytes = (messages: readonly OutgoingMessage[]): number =>
  messages.reduce((n, m) => n + (m.value?.length ?? 0) + (m.key?.length ?? 0) + Object.entries(m.headers ?? {}).reduce((h, [k, v]) => h + k.length + String(v).length, 0), 0);

/** A producer that, as a broker with its default `message.max.bytes`, refuses a topic's messages of one request over 1,048,588 bytes. */
function broker(): MessageProducer & { sent: OutgoingMessage[][] } {
  const sent: OutgoingMessage[][] = [];
  return {
    sent,
    send: async (topicMessages) => {
      for (const { messages } of topicMessages) {
        if (requestBytes(messages) > 1_048_588) throw new Error('MESSAGE_TOO_LARGE');
      }
      for (const { messages } of topicMessages) sent.push(messages);
    },
    close: async () => undefined,
  };
}

const letter = (offset: number, bytes: number): DeadMessage => ({
  topic: 'events',
  partition: offset % 3,
  reason: 'invalid JSON',
  message: { offset: String(offset), key: Buffer.from(`cust-${offset}`), value: Buffer.alloc(bytes, 120), headers: {} },
});

describe('the dead letters copied to the DLQ', () => {
  it('go in requests a broker takes, however many, in order, each with its source and reason', async () => {
    // 3,000 dead letters of 700 bytes: 2 MB, which one request would have carried as one record batch.
    const letters = Array.from({ length: 3000 }, (_, i) => letter(i, 700));
    const producer = broker();
    await new DeadLetterPublisher(producer).publish(letters);
    expect(producer.sent.length).toBeGreaterThan(3);
    const all = producer.sent.flat();
    expect(all.map((m) => m.headers?.[DLQ_HEADERS.offset])).toEqual(letters.map((l) => l.message.offset));
    expect(all.every((m) => m.headers?.[DLQ_HEADERS.reason] === 'invalid JSON' && m.headers[DLQ_HEADERS.topic] === 'events')).toBe(true);
    expect(all.every((m) => m.value?.length === 700)).toBe(true);
  });

  it('cut a value too large to copy whole, and say its length', async () => {
    const producer = broker();
    await new DeadLetterPublisher(producer).publish([letter(1, 900 * 1024), letter(2, 10)]);
    const [big, small] = producer.sent.flat();
    expect(big?.value?.length).toBe(256 * 1024);
    expect(big?.headers?.[DLQ_HEADERS.valueBytes]).toBe(String(900 * 1024));
    expect(small?.value?.length).toBe(10);
    expect(small?.headers?.[DLQ_HEADERS.valueBytes]).toBeUndefined();
  });

  it('give up after the time allowed when the brokers do not answer, so that the batch rolls back rather than hold the writer', async () => {
    const silent: MessageProducer = { send: () => new Promise<void>(() => undefined), close: async () => undefined };
    const started = Date.now();
    const publishing = new DeadLetterPublisher(silent, { requestBytes: 512 * 1024, valueBytes: 256 * 1024, timeoutMs: 200 }).publish([letter(1, 10)]);
    const err = await publishing.then(() => undefined, (e: unknown) => e);
    expect(errorCode(err)).toBe('DLQ_PUBLISH_FAILED');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
