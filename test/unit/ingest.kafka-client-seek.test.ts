import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { kafkaIngestSettingsFromConfig } from '../../src/ingest/kafka-settings.js';
import { loggedLines } from '../helpers/log-lines.js';

/**
 * A stand-in for kafkajs's consumer that behaves as kafkajs does around a
 * crash: its seek throws while it has no group, which is the case between
 * the crash's disconnect and the CRASH event it emits afterwards.
 */
class FakeConsumer extends EventEmitter {
  readonly events = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' };
  hasGroup = false;
  readonly sought: unknown[] = [];
  private started!: () => void;
  readonly running = new Promise<void>((resolve) => (this.started = resolve));
  async connect(): Promise<void> {}
  async subscribe(): Promise<void> {}
  async run(): Promise<void> {
    this.hasGroup = true;
    this.started();
  }
  async disconnect(): Promise<void> {
    this.hasGroup = false;
  }
  seek(target: unknown): void {
    if (!this.hasGroup) throw new Error('Consumer group was not initialized, consumer#run must be called first');
    this.sought.push(target);
  }
}

const fake = vi.hoisted(() => ({ consumer: undefined as unknown }));

vi.mock('kafkajs', async (importOriginal) => {
  const real = await importOriginal<typeof import('kafkajs')>();
  class Kafka {
    consumer(): unknown {
      return fake.consumer;
    }
  }
  return { ...real, Kafka };
});

const { startGroupConsumer } = await import('../../src/ingest/kafka-client.js');

describe("the group consumer's seeks", () => {
  it('skips a seek that kafkajs refuses while it restarts after a crash, logging it, rather than throwing to the caller', async () => {
    const consumer = new FakeConsumer();
    fake.consumer = consumer;
    const { logger, lines } = loggedLines('warn');
    const settings = kafkaIngestSettingsFromConfig(loadConfig({ AFFORD_KAFKA_BROKERS: 'localhost:9092' }));
    const handlers = { onAssigned: () => [{ topic: 't', partition: 0, offset: '5' }], onBatch: async () => undefined, onRestart: () => undefined };
    const group = startGroupConsumer(settings, handlers, logger);
    await consumer.running;

    consumer.emit(consumer.events.GROUP_JOIN, { payload: { memberAssignment: { t: [0] } } });
    expect(consumer.sought).toEqual([{ topic: 't', partition: 0, offset: '5' }]);
    group.seek('t', 0, '6');
    expect(consumer.sought).toHaveLength(2);

    // The crash window: kafkajs has disconnected (no group), and has not yet said CRASH.
    await consumer.disconnect();
    expect(() => group.seek('t', 0, '7')).not.toThrow();
    expect(consumer.sought).toHaveLength(2);
    expect(lines.filter((l) => l.msg.startsWith('seek skipped'))).toEqual([
      expect.objectContaining({ level: 40, topic: 't', partition: 0, offset: '7', err: expect.stringContaining('not initialized') }),
    ]);
    await group.stop();
  });
});
