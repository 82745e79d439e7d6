import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createProducer } from '../../src/ingest/kafka-client.js';
import type { MessageProducer } from '../../src/ingest/kafka-types.js';
import { startMockBroker, type MockBroker } from '../../bench/mock-kafka-broker.js';
import { brokerTopics, TOPICS } from './kafka-data.js';
import { silentLogger } from './store.js';

export interface KafkaFixture {
  broker: MockBroker;
  /** A temporary folder for the test file's DuckDB files. */
  dir: string;
  /** A producer on the broker, made on first use and closed with the broker. */
  producer(): MessageProducer;
}

/**
 * One mock broker with the four topics (4 partitions each, plus any extra) and a temporary
 * folder for a whole test file, stopped and removed after it.
 */
export function useKafkaFixture(dirPrefix: string, extraTopics: Record<string, number> = {}): KafkaFixture {
  let producer: MessageProducer | undefined;
  const fixture = {
    broker: undefined as unknown as MockBroker,
    dir: '',
    producer: (): MessageProducer =>
      (producer ??= createProducer({ brokers: [fixture.broker.bootstrap], clientId: 'afford-test', ssl: false }, silentLogger)),
  };
  beforeAll(async () => {
    fixture.broker = await startMockBroker({ ...brokerTopics(TOPICS, 4), ...extraTopics });
    fixture.dir = mkdtempSync(path.join(tmpdir(), dirPrefix));
  });
  afterAll(async () => {
    await producer?.close();
    await fixture.broker?.stop();
    if (fixture.dir) rmSync(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}
