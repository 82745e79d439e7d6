import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { decompressed } from './compressed-input.js';
import type { MessageProducer, OutgoingMessage } from './kafka-types.js';
import { affordError } from '../domain/errors.js';

/**
 * Publishes NDJSON event lines to Kafka, keyed by customer. Every line goes
 * out, invalid ones included (with a null key when there is no customer to
 * read), so that they become dead letters downstream as they would in life.
 */

export interface ProduceOptions {
  /** Topics to spread customers over; each customer stays on one of them, in order. */
  topics: readonly string[];
  /** Messages per produce request. */
  batchMessages?: number;
  onProgress?: (produced: number) => void;
}

export interface ProduceSummary {
  messages: number;
  nullKeys: number;
  byTopic: Record<string, number>;
}

/** The customer_id of an event line, or null when the line has none to give. */
export function customerKey(line: string): string | null {
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === 'object' && 'customer_id' in parsed) {
      const id = (parsed as { customer_id: unknown }).customer_id;
      if (typeof id === 'string' && id.length > 0) return id;
    }
  } catch {
    // Not JSON: produced with a null key.
  }
  return null;
}

/** FNV-1a: a stable topic per customer, whatever the process or platform. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** All of a customer's events share one topic, so one partition keeps them in order. */
export function topicFor(key: string | null, sequence: number, topics: readonly string[]): string {
  const index = key === null ? sequence % topics.length : hash32(key) % topics.length;
  return topics[index] as string;
}

export async function produceLines(producer: MessageProducer, lines: AsyncIterable<string> | Iterable<string>, options: ProduceOptions): Promise<ProduceSummary> {
  if (options.topics.length === 0) throw affordError('NO_PRODUCE_TOPICS');
  const batchMessages = options.batchMessages ?? 1000;
  const summary: ProduceSummary = { messages: 0, nullKeys: 0, byTopic: {} };
  let pending = new Map<string, OutgoingMessage[]>();
  let pendingCount = 0;

  // One request at a time: a second in flight could reorder a customer's events on a retry.
  const flush = async (): Promise<void> => {
    if (pendingCount === 0) return;
    await producer.send([...pending].map(([topic, messages]) => ({ topic, messages })));
    summary.messages += pendingCount;
    pending = new Map();
    pendingCount = 0;
    options.onProgress?.(summary.messages);
  };

  let sequence = 0;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const key = customerKey(line);
    const topic = topicFor(key, sequence++, options.topics);
    if (key === null) summary.nullKeys++;
    summary.byTopic[topic] = (summary.byTopic[topic] ?? 0) + 1;
    let list = pending.get(topic);
    if (!list) pending.set(topic, (list = []));
    list.push({ key, value: line });
    if (++pendingCount >= batchMessages) await flush();
  }
  await flush();
  return summary;
}

/** An NDJSON file (plain, gzip or ZStandard), or standard input for '-'. */
export async function produceFile(producer: MessageProducer, input: string, options: ProduceOptions): Promise<ProduceSummary> {
  const stream = input === '-' ? process.stdin : createReadStream(input);
  // Compressed as ingest file takes it (gzip or ZStandard), or plain.
  return produceLines(producer, createInterface({ input: Readable.from(decompressed(stream)), crlfDelay: Infinity }), options);
}
