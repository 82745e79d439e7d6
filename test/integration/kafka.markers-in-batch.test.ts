import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EachBatchPayload } from 'kafkajs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Store } from '../../src/db/store.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import type { BatchIngester } from '../../src/ingest/kafka-writer.js';
import { generated, testIngestSettings } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

/**
 * A real broker answers a fetch with a transaction's messages and the marker
 * that ends it in one batch; kafkajs hands over the messages and keeps the
 * marker, whose offset only the batch's last offset tells. The test broker
 * never sends the two together, so this test gives the consumer that batch
 * itself: kafkajs's own Batch, made from records as its decoder reads them,
 * through a stand-in for the group consumer (the rest, DuckDB included, is
 * real).
 */

const TOPIC = 'afford.markers-in-batch.v1';

class FakeConsumer extends EventEmitter {
  readonly events = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash', END_BATCH_PROCESS: 'consumer.end_batch_process' };
  eachBatch!: (payload: EachBatchPayload) => Promise<void>;
  private started!: () => void;
  readonly running = new Promise<void>((resolve) => (this.started = resolve));
  async connect(): Promise<void> {}
  async subscribe(): Promise<void> {}
  async run(options: { eachBatch: (payload: EachBatchPayload) => Promise<void> }): Promise<void> {
    this.eachBatch = options.eachBatch;
    this.started();
  }
  async disconnect(): Promise<void> {}
  async commitOffsets(): Promise<void> {}
  seek(): void {}
}

const fake = vi.hoisted(() => ({ consumer: undefined as unknown, high: '0', low: '0' }));

vi.mock('kafkajs', async (importOriginal) => {
  const real = await importOriginal<typeof import('kafkajs')>();
  class Kafka {
    consumer(): unknown {
      return fake.consumer;
    }
    producer(): unknown {
      return { connect: async () => undefined, disconnect: async () => undefined, sendBatch: async () => undefined };
    }
    admin(): unknown {
      return {
        connect: async () => undefined,
        disconnect: async () => undefined,
        fetchTopicOffsets: async () => [{ partition: 0, offset: fake.high, high: fake.high, low: fake.low }],
      };
    }
  }
  return { ...real, Kafka };
});

const { KafkaIngest } = await import('../../src/ingest/kafka-ingest.js');
// kafkajs's own batch, as its consumer builds one from a fetch: it drops control records and aborted messages.
const Batch = createRequire(import.meta.url)('kafkajs/src/consumer/batch.js') as new (
  topic: string,
  fetchedOffset: string,
  partitionData: { partition: number; highWatermark: string; abortedTransactions: unknown[]; messages: unknown[] },
) => EachBatchPayload['batch'];

type Ingest = Awaited<ReturnType<typeof KafkaIngest.create>>;

/** The consumer under test over `pipeline`, not yet running. */
const createIngest = (pipeline: BatchIngester, metrics = new IngestMetrics()): Promise<Ingest> =>
  KafkaIngest.create({ pipeline, metrics, logger: silentLogger, settings: testIngestSettings('localhost:9092', 'g', [TOPIC], { rows: 100, waitMs: 20 }) });

/** Runs it, has the group give it partition 0, and returns how to hand it a kafkajs batch (the offsets it resolves go to `resolved`). */
async function join(consumer: FakeConsumer, ingest: Ingest, resolved: string[] = []): Promise<(batch: EachBatchPayload['batch']) => Promise<void>> {
  ingest.run();
  await consumer.running;
  consumer.emit(consumer.events.GROUP_JOIN, { payload: { memberAssignment: { [TOPIC]: [0] } } });
  return (batch) =>
    consumer.eachBatch({
      batch,
      resolveOffset: (offset: string) => void resolved.push(offset),
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
    } as unknown as EachBatchPayload);
}

const dir = mkdtempSync(path.join(tmpdir(), 'afford-markers-in-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What kafkajs's runner tells of a batch it does not hand to eachBatch, as it emits it. */
const endOfBatch = (batch: EachBatchPayload['batch']) => ({
  payload: { topic: batch.topic, partition: batch.partition, highWatermark: batch.highWatermark, batchSize: batch.messages.length, firstOffset: batch.firstOffset(), lastOffset: batch.lastOffset() },
});

const record = (offset: number, value: Buffer, producerId: string, control = false) => ({
  offset: String(offset),
  key: control ? value.subarray(0, 4) : Buffer.from('k'),
  value: control ? Buffer.from([0, 0, 0, 0, 0, 0]) : value,
  headers: {},
  isControlRecord: control,
  batchContext: { producerId, inTransaction: true },
});
const COMMIT = Buffer.from([0, 0, 0, 1]);
const ABORT = Buffer.from([0, 0, 0, 0]);

describe('fetched batches with transaction markers and an aborted transaction', () => {
  it("store the committed messages, none of the aborted ones, and move the partition's offset past every marker", async () => {
    const committed = generated({ customers: 1, months: 1, seed: 3, faults: false, endMonth: '2024-06' }).lines.slice(0, 8);
    const customer = (JSON.parse(committed[0] as string) as { customer_id: string }).customer_id;
    // The aborted transaction's events: another customer's, so that any of them stored would show.
    const abortedCustomer = 'cust-aborted';
    const abortedLines = committed.slice(0, 3).map((l) => l.replaceAll(`"${customer}"`, `"${abortedCustomer}"`));
    expect(committed.some((l) => l.includes(`"${abortedCustomer}"`))).toBe(false);
    // Offsets 0-5: a committed transaction of producer 7 and its marker (6), fetched together.
    const first = new Batch(TOPIC, '0', {
      partition: 0,
      highWatermark: '7',
      abortedTransactions: [],
      messages: [...committed.slice(0, 6).map((l, i) => record(i, Buffer.from(l), '7')), record(6, COMMIT, '7', true)],
    });
    expect(first.messages).toHaveLength(6);
    expect(first.lastOffset()).toBe('6');
    // Offsets 7-9: producer 8's transaction, aborted by its marker (10); fetched alone, kafkajs hands over nothing.
    const aborted = new Batch(TOPIC, '7', {
      partition: 0,
      highWatermark: '11',
      abortedTransactions: [{ producerId: '8', firstOffset: '7' }],
      messages: [...abortedLines.map((l, i) => record(7 + i, Buffer.from(l), '8')), record(10, ABORT, '8', true)],
    });
    expect(aborted.messages).toHaveLength(0);
    // Offsets 11-12: producer 7 again, and its marker (13) ending the partition.
    const last = new Batch(TOPIC, '11', {
      partition: 0,
      highWatermark: '14',
      abortedTransactions: [],
      messages: [...committed.slice(6).map((l, i) => record(11 + i, Buffer.from(l), '7')), record(13, COMMIT, '7', true)],
    });
    fake.high = '14';

    const consumer = new FakeConsumer();
    fake.consumer = consumer;
    const store = await Store.open(path.join(dir, 'markers.duckdb'), silentLogger);
    const metrics = new IngestMetrics();
    try {
      const ingest = await createIngest(buildPipeline(store, silentLogger), metrics);
      const check = await ingest.catchUpProbe()();
      const resolved: string[] = [];
      const handOver = await join(consumer, ingest, resolved);
      const position = () => ingest.committedOffsets().get(`${TOPIC}#0`);
      const until = async (offset: bigint) => {
        const deadline = Date.now() + 10_000;
        while (position() !== offset && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      };

      await handOver(first);
      await until(7n);
      expect(position()).toBe(7n);
      // The client is told the marker is done with, so that it does not fetch it again.
      expect(resolved).toEqual(['6']);
      // As kafkajs's runner does with a batch that filtering left empty: no eachBatch, only the event.
      consumer.emit(consumer.events.END_BATCH_PROCESS, endOfBatch(aborted));
      await until(11n);
      expect(position()).toBe(11n);
      // The offset moved past them alone is no batch of events in the metrics.
      const counted = await metrics.registry.metrics();
      expect(counted).toMatch(/afford_ingest_batch_duration_seconds_count\{source="kafka"\} 1\n/);
      expect(counted).not.toContain('source="none"');
      await handOver(last);
      const deadline = Date.now() + 10_000;
      while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(position()).toBe(14n);
      await ingest.stop();

      const offsets = await store.read((c) => rowsAs<{ next_offset: string }>(c, 'SELECT next_offset FROM ingest_offsets'));
      expect(offsets.map((o) => BigInt(o.next_offset))).toEqual([14n]);
      // Every committed message was an event, stored; nothing of the aborted transaction is.
      expect(await store.read((c) => rowsAs<{ n: number }>(c, 'SELECT count(*)::INTEGER AS n FROM dead_letters'))).toEqual([{ n: 0 }]);
      const customers = await store.read((c) => rowsAs<{ customer_id: string }>(c, 'SELECT DISTINCT customer_id FROM transactions'));
      expect(customers.map((r) => r.customer_id)).not.toContain(abortedCustomer);
      expect(customers.map((r) => r.customer_id)).toEqual([customer]);
    } finally {
      await store.close();
    }
  });
});

describe('a fetch of markers only that was in flight when a failed write sent the partition back', () => {
  it('moves no offset past events that are not stored yet', async () => {
    const lines = generated({ customers: 1, months: 1, seed: 3, faults: false, endMonth: '2024-06' }).lines.slice(0, 6);
    const plain = (i: number, l: string) => ({ offset: String(i), key: Buffer.from('k'), value: Buffer.from(l), headers: {}, isControlRecord: false, batchContext: { producerId: '-1', inTransaction: false } });
    // Offsets 0-5: six events; 6-7: producer 8's aborted message and its marker.
    const events = new Batch(TOPIC, '0', { partition: 0, highWatermark: '6', abortedTransactions: [], messages: lines.map((l, i) => plain(i, l)) });
    const aborted = new Batch(TOPIC, '6', { partition: 0, highWatermark: '8', abortedTransactions: [{ producerId: '8', firstOffset: '6' }], messages: [record(6, Buffer.from(lines[0] as string), '8'), record(7, ABORT, '8', true)] });
    expect(aborted.messages).toHaveLength(0);
    fake.high = '8';
    const consumer = new FakeConsumer();
    fake.consumer = consumer;
    const store = await Store.open(path.join(dir, 'in-flight.duckdb'), silentLogger);
    try {
      const pipeline = buildPipeline(store, silentLogger);
      const write = pipeline.ingest.bind(pipeline);
      let failures = 1;
      pipeline.ingest = (async (...args: Parameters<typeof write>) => {
        if (failures-- > 0) throw new Error('the store failed once');
        return write(...args);
      }) as typeof pipeline.ingest;
      const ingest = await createIngest(pipeline);
      const handOver = await join(consumer, ingest);
      // Queued, and its write fails: after a pause the queue is dropped and the partition read again from 0.
      await handOver(events);
      await new Promise((r) => setTimeout(r, 900));
      // The fetch of offsets 6-7, in flight across that: kafkajs hands over nothing and says so in its event.
      consumer.emit(consumer.events.END_BATCH_PROCESS, endOfBatch(aborted));
      // The fetch from 0 again: the six events, then the aborted transaction.
      await handOver(new Batch(TOPIC, '0', { partition: 0, highWatermark: '8', abortedTransactions: [{ producerId: '8', firstOffset: '6' }], messages: [...lines.map((l, i) => plain(i, l)), record(6, Buffer.from(lines[0] as string), '8'), record(7, ABORT, '8', true)] }));
      const deadline = Date.now() + 10_000;
      while (ingest.committedOffsets().get(`${TOPIC}#0`) !== 8n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await ingest.stop();
      const upserts = lines.filter((l) => l.includes('"transaction.upserted"')).length;
      expect(upserts).toBeGreaterThan(0);
      expect(await store.read((c) => rowsAs<{ n: number }>(c, 'SELECT count(*)::INTEGER AS n FROM transactions'))).toEqual([{ n: upserts }]);
      expect((await store.read((c) => rowsAs<{ next_offset: string }>(c, 'SELECT next_offset FROM ingest_offsets'))).map((o) => o.next_offset)).toEqual(['8']);
    } finally {
      await store.close();
    }
  });
});


describe('a topic made again while a transaction of the old one is being written', () => {
  it('keeps the new topic from offset 0: the old transaction commits first, then the partition is reset', async () => {
    const plain = (i: number, l: string) => ({ offset: String(i), key: Buffer.from('k'), value: Buffer.from(l), headers: {}, isControlRecord: false, batchContext: { producerId: '-1', inTransaction: false } });
    const old = generated({ customers: 1, months: 1, seed: 3, faults: false, endMonth: '2024-06' }).lines.slice(0, 10);
    const fresh = generated({ customers: 1, months: 1, seed: 5, faults: false, endMonth: '2024-06' }).lines.slice(0, 4).map((l) => l.replaceAll('"cust-', '"cust-new-'));
    fake.high = '10';
    const consumer = new FakeConsumer();
    fake.consumer = consumer;
    const store = await Store.open(path.join(dir, 'reset-in-flight.duckdb'), silentLogger);
    try {
      const pipeline = buildPipeline(store, silentLogger);
      const write = pipeline.ingest.bind(pipeline);
      // The old topic's write is held open until the new topic's first fetch has come.
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = (): void => undefined;
      const writing = new Promise<void>((resolve) => (started = resolve));
      let first = true;
      pipeline.ingest = (async (...args: Parameters<typeof write>) => {
        if (first) {
          first = false;
          started();
          await gate;
        }
        return write(...args);
      }) as typeof pipeline.ingest;
      const ingest = await createIngest(pipeline);
      const handOver = await join(consumer, ingest);
      await handOver(new Batch(TOPIC, '0', { partition: 0, highWatermark: '10', abortedTransactions: [], messages: old.map((l, i) => plain(i, l)) }));
      await writing;
      // Made again: its first fetch, from 0, ends at 4, while offsets 0-9 of the old one are being written.
      fake.high = '4';
      const newFetch = handOver(new Batch(TOPIC, '0', { partition: 0, highWatermark: '4', abortedTransactions: [], messages: fresh.map((l, i) => plain(i, l)) }));
      await new Promise((r) => setTimeout(r, 100));
      release();
      await newFetch;
      const deadline = Date.now() + 10_000;
      while (ingest.committedOffsets().get(`${TOPIC}#0`) !== 4n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await ingest.stop();
      const upsertsOf = (lines: readonly string[]) => lines.filter((l) => l.includes('"transaction.upserted"')).length;
      const counts = await store.read((c) => rowsAs<{ fresh: boolean; n: number }>(c, "SELECT customer_id LIKE 'cust-new-%' AS fresh, count(*)::INTEGER AS n FROM transactions GROUP BY ALL ORDER BY 1"));
      expect(counts).toEqual([
        { fresh: false, n: upsertsOf(old) },
        { fresh: true, n: upsertsOf(fresh) },
      ]);
      expect((await store.read((c) => rowsAs<{ next_offset: string }>(c, 'SELECT next_offset FROM ingest_offsets'))).map((o) => o.next_offset)).toEqual(['4']);
    } finally {
      await store.close();
    }
  });
});

describe('a partition of no stored offset whose log, after retention, holds only an aborted transaction', () => {
  it('moves its offset past it, as the log starts there, and ingestion counts as caught up', async () => {
    const lines = generated({ customers: 1, months: 1, seed: 3, faults: false, endMonth: '2024-06' }).lines.slice(0, 2);
    // Offsets 0-99 are gone; 100-101 are producer 8's aborted messages, 102 its abort marker.
    const aborted = new Batch(TOPIC, '100', {
      partition: 0,
      highWatermark: '103',
      abortedTransactions: [{ producerId: '8', firstOffset: '100' }],
      messages: [...lines.map((l, i) => record(100 + i, Buffer.from(l), '8')), record(102, ABORT, '8', true)],
    });
    expect(aborted.messages).toHaveLength(0);
    [fake.high, fake.low] = ['103', '100'];
    const consumer = new FakeConsumer();
    fake.consumer = consumer;
    const store = await Store.open(path.join(dir, 'log-start.duckdb'), silentLogger);
    try {
      const ingest = await createIngest(buildPipeline(store, silentLogger));
      const check = await ingest.catchUpProbe()();
      await join(consumer, ingest);
      expect(await check()).toBe(false);
      consumer.emit(consumer.events.END_BATCH_PROCESS, endOfBatch(aborted));
      const deadline = Date.now() + 10_000;
      while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(ingest.committedOffsets().get(`${TOPIC}#0`)).toBe(103n);
      await ingest.stop();
      expect(await store.read((c) => rowsAs<{ n: number }>(c, 'SELECT count(*)::INTEGER AS n FROM transactions'))).toEqual([{ n: 0 }]);
    } finally {
      [fake.high, fake.low] = ['0', '0'];
      await store.close();
    }
  });
});

