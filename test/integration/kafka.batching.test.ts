import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from '../../src/logger.js';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import type { BatchIngester } from '../../src/ingest/kafka-writer.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { fastValidator } from '../../src/ingest/fast-validator.js';
import type { FoundRows } from '../../src/ingest/fast-rows.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { endOffsets, generated, referenceSnapshot, snapshot } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { until } from '../helpers/time.js';

const TOPIC = 'afford.batching-test.v1';
const FAILING_TOPIC = 'afford.failing-test.v1';
const HELD_TOPIC = 'afford.held-fetch-test.v1';
const PARTITIONS = 16;

const kafka = useKafkaFixture('afford-kafka-batching-', { [TOPIC]: PARTITIONS, [`${TOPIC}.dlq`]: 1, [FAILING_TOPIC]: 4, [`${FAILING_TOPIC}.dlq`]: 1, [HELD_TOPIC]: 8, [`${HELD_TOPIC}.dlq`]: 1 });

/** A consumer of one topic into `pipeline`, on the test broker, with the given transaction limits. */
function startConsumer(pipeline: BatchIngester, topic: string, batch: { rows: number; bytes: number; waitMs: number }, logger: Logger = silentLogger) {
  return KafkaIngest.start({
    pipeline,
    metrics: new IngestMetrics(),
    logger,
    settings: {
      connection: { brokers: [kafka.broker.bootstrap], clientId: 'afford-test', ssl: false },
      groupId: `${topic}-test`,
      topics: [topic],
      shard: { index: 0, count: 1 },
      batchRows: batch.rows,
      batchBytes: batch.bytes,
      batchWaitMs: batch.waitMs,
      sessionTimeoutMs: 6000,
    },
  });
}

describe('Kafka batching', () => {
  it('fetches on while a transaction runs, and writes all it fetched meanwhile, from many fetches and partitions, in the next one', async () => {
    const { lines } = generated({ customers: 40, months: 1, seed: 23, faults: true, endMonth: '2024-06' });
    // Sends of 5 make record batches of a few kilobytes: with 16 KB fetched per partition, each partition takes several fetches.
    await produceLines(kafka.producer(), lines, { topics: [TOPIC], batchMessages: 5 });
    const ends = await endOffsets(kafka.broker.bootstrap, [TOPIC]);
    expect(ends.size).toBe(PARTITIONS);

    const store = await Store.open(path.join(kafka.dir, 'batching.duckdb'), silentLogger);
    const pipeline = buildPipeline(store, silentLogger);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    // The first transaction waits until the test lets it go.
    const held: BatchIngester = {
      store,
      ingest: async (items, hook) => {
        if (calls++ === 0) await gate;
        return pipeline.ingest(items, hook);
      },
    };
    const committed: Array<{ rows: number; partitions: number }> = [];
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = JSON.parse(chunk.toString('utf8')) as { msg: string; rows?: number; offsets?: Record<string, string> };
        if (line.msg === 'Kafka batch committed') committed.push({ rows: line.rows ?? 0, partitions: Object.keys(line.offsets ?? {}).length });
        done();
      },
    });
    const ingest = await startConsumer(held, TOPIC, { rows: 100_000, bytes: 16 * 1024, waitMs: 0 }, pino({ level: 'info' }, capture));
    const show = (m: ReadonlyMap<string, bigint>) => JSON.stringify([...m].map(([k, v]) => `${k}@${v}`));
    try {
      await until(() => calls === 1 && [...ends].every(([k, end]) => (ingest.fetchedOffsets().get(k) ?? 0n) === end), () => show(ingest.fetchedOffsets()));
      expect(committed).toEqual([]);
      release();
      await until(() => [...ends].every(([k, end]) => (ingest.committedOffsets().get(k) ?? 0n) === end), () => show(ingest.committedOffsets()));
    } finally {
      release();
      await ingest.stop();
    }
    try {
      // The first transaction took what the first fetch brought; the second, all the rest, of dozens of fetches and most partitions.
      expect(committed).toHaveLength(2);
      expect(committed[1]?.partitions).toBeGreaterThanOrEqual(PARTITIONS / 2);
      expect((committed[0]?.rows ?? 0) + (committed[1]?.rows ?? 0)).toBe(lines.length);
      expect(await snapshot(store)).toEqual(await referenceSnapshot(mkdtempSync(path.join(kafka.dir, 'reference-')), lines));
    } finally {
      await store.close();
    }
  }, 90_000);

  it('reads a failed transaction\'s partitions again and ends exact, each event once', async () => {
    const topic = FAILING_TOPIC;
    const { lines } = generated({ customers: 12, months: 1, seed: 29, faults: true, endMonth: '2024-06' });
    await produceLines(kafka.producer(), lines, { topics: [topic], batchMessages: 20 });
    const ends = await endOffsets(kafka.broker.bootstrap, [topic]);
    const store = await Store.open(path.join(kafka.dir, 'failing.duckdb'), silentLogger);
    const pipeline = buildPipeline(store, silentLogger);
    let failures = 0;
    // The store fails the first two transactions as a whole, as a full disk would.
    const failing: BatchIngester = {
      store,
      ingest: async (items, hook) => {
        if (failures < 2) {
          failures++;
          throw new Error('disk full');
        }
        return pipeline.ingest(items, hook);
      },
    };
    const ingest = await startConsumer(failing, topic, { rows: 300, bytes: 64 * 1024, waitMs: 0 });
    try {
      await until(() => [...ends].every(([k, end]) => (ingest.committedOffsets().get(k) ?? 0n) === end), () => JSON.stringify([...ingest.committedOffsets()].map(String)));
    } finally {
      await ingest.stop();
    }
    try {
      expect(failures).toBe(2);
      expect(await snapshot(store)).toEqual(await referenceSnapshot(mkdtempSync(path.join(kafka.dir, 'reference-')), lines));
    } finally {
      await store.close();
    }
  }, 90_000);
  it('holds its next fetch back while the transaction in hand waits for its fast rows, then fetches on and ends exact', async () => {
    const { lines } = generated({ customers: 60, months: 4, seed: 31, faults: true, endMonth: '2024-06' });
    expect(lines.length).toBeGreaterThan(4 * 2500);
    await produceLines(kafka.producer(), lines, { topics: [HELD_TOPIC], batchMessages: 200 });
    const ends = await endOffsets(kafka.broker.bootstrap, [HELD_TOPIC]);
    const store = await Store.open(path.join(kafka.dir, 'held-fetch.duckdb'), silentLogger);
    const pipeline = buildPipeline(store, silentLogger);
    const sum = (m: ReadonlyMap<string, bigint>): bigint => [...m.values()].reduce((a, b) => a + b, 0n);
    // The fast path's thread is kept busy with other work, queued just before the first chunk is handed to it, so that
    // finding the first transaction's rows takes a while (queued at the start, the work was often done before the
    // consumer had joined its group).
    const busyItems = Array.from({ length: 20 }, () => lines).flat().map((raw, i) => ({ raw, ref: { source: 'file' as const, sourceRef: 'busy', lineNumber: i } }));
    let busy: Promise<unknown> | undefined;
    const bytes = fastValidator.bytes.bind(fastValidator);
    fastValidator.bytes = (values) => {
      busy ??= fastValidator.rows(busyItems);
      return bytes(values);
    };
    // Set once the consumer starts: the pipeline below reads how far it has fetched.
    const consumer: { ingest?: KafkaIngest } = {};
    let seen: { waited: boolean; before: bigint; after: bigint } | undefined;
    const watched: BatchIngester = {
      store,
      ingest: async (items, hook, found?: Promise<FoundRows>) => {
        const { ingest } = consumer;
        if (found && seen === undefined && ingest) {
          const before = sum(ingest.fetchedOffsets());
          const waited = await Promise.race([found.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 300))]);
          await found;
          seen = { waited, before, after: sum(ingest.fetchedOffsets()) };
        }
        return pipeline.ingest(items, hook, found);
      },
    };
    const ingest = await startConsumer(watched, HELD_TOPIC, { rows: 2500, bytes: 1024 * 1024, waitMs: 50 });
    consumer.ingest = ingest;
    try {
      await until(() => [...ends].every(([k, end]) => (ingest.committedOffsets().get(k) ?? 0n) === end), () => JSON.stringify(seen));
    } finally {
      await ingest.stop();
      // The validator's own method again.
      delete (fastValidator as { bytes?: unknown }).bytes;
    }
    await busy;
    // The rows were a while in coming, with more of the topic still to fetch; nothing more was fetched until they were found.
    expect(seen?.waited).toBe(true);
    expect(seen?.before).toBeLessThan(sum(ends));
    expect(seen?.after).toBe(seen?.before);
    expect(await snapshot(store)).toEqual(await referenceSnapshot(mkdtempSync(path.join(kafka.dir, 'reference-')), lines));
    await store.close();
  });
});

