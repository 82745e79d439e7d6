import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildPipeline } from '../../src/app/pipeline.js';
import { Store } from '../../src/db/store.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import type { GroupConsumer } from '../../src/ingest/kafka-types.js';
import type { BatchIngester } from '../../src/ingest/kafka-writer.js';
import type { Logger } from '../../src/logger.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, endOffsets, generated, referenceSnapshot, snapshot } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { until } from '../helpers/time.js';

const TOPIC = 'afford.stall-test.v1';
const PARTITIONS = 3;
const FAILING_TOPIC = 'afford.stall-failing-test.v1';

const kafka = useKafkaFixture('afford-kafka-stall-', { ...brokerTopics([TOPIC], PARTITIONS), ...brokerTopics([FAILING_TOPIC], 1) });

/** Our consumer of one topic, with the stall check every 400 ms. */
function startConsumer(pipeline: BatchIngester, topic: string, logger: Logger): Promise<KafkaIngest> {
  return KafkaIngest.start({
    pipeline,
    metrics: new IngestMetrics(),
    logger,
    settings: {
      connection: { brokers: [kafka.broker.bootstrap], clientId: 'afford-test', ssl: false },
      groupId: `${topic}-test`,
      topics: [topic],
      shard: { index: 0, count: 1 },
      batchRows: 1000,
      batchBytes: 1024 * 1024,
      batchWaitMs: 50,
      sessionTimeoutMs: 6000,
    },
    stallCheckMs: 400,
  });
}

const STOPPED = 'partition is behind its end and has stopped; reading it again from the stored offset';

interface Line {
  msg: string;
  partition?: number;
  stored?: string;
  end?: string;
  queued_to?: string | null;
  last_fetched?: unknown;
}

describe('a Kafka partition that stops behind its end', () => {
  it('is noticed, logged with what the client last fetched of it, and read again from the stored offset', async () => {
    const { lines } = generated({ customers: 6, months: 2, seed: 5, faults: true, endMonth: '2024-06' });
    await produceLines(kafka.producer(), lines, { topics: [TOPIC] });
    const ends = await endOffsets(kafka.broker.bootstrap, [TOPIC]);
    expect([...ends.values()].filter((end) => end > 0n).length).toBe(PARTITIONS);

    const store = await Store.open(path.join(kafka.dir, 'stall.duckdb'), silentLogger);
    const logged: Line[] = [];
    let ingest: KafkaIngest | undefined;
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = JSON.parse(chunk.toString('utf8')) as Line;
        logged.push(line);
        if (line.msg === 'partitions assigned' && logged.filter((l) => l.msg === line.msg).length === 1) {
          // Once the assignment's own seeks are in, the client is sent to every partition's end, with nothing
          // stored: it stands for a client that has lost its place, and no batch will come to show it.
          queueMicrotask(() => {
            const consumer = (ingest as unknown as { consumer: GroupConsumer }).consumer;
            for (const [key, end] of ends) consumer.seek(TOPIC, Number(key.slice(key.lastIndexOf('#') + 1)), String(end));
          });
        }
        done();
      },
    });
    try {
      ingest = await startConsumer(buildPipeline(store, silentLogger), TOPIC, pino({ level: 'info' }, capture));
      const running = ingest;
      const show = (): string => JSON.stringify([...running.committedOffsets()].map(([k, v]) => `${k}@${v}`));
      await until(() => [...ends].every(([k, end]) => (running.committedOffsets().get(k) ?? 0n) === end), show, 30_000);
    } finally {
      await ingest?.stop();
    }

    // Each partition was found stopped at 0 once, with nothing fetched of it, and read again from there.
    const stalls = logged.filter((l) => l.msg === STOPPED);
    expect(stalls.map((l) => l.partition).sort()).toEqual([...Array(PARTITIONS).keys()]);
    for (const l of stalls) {
      expect(l).toMatchObject({ stored: '0', end: String(ends.get(`${TOPIC}#${l.partition}`)), queued_to: null, last_fetched: null });
    }
    // And what it then read is stored as one clean ingest of the same events stores it.
    const got = await snapshot(store);
    await store.close();
    expect(got).toEqual(await referenceSnapshot(kafka.dir, lines));
  }, 90_000);

  it('is not taken for one whose failed transaction waits out its pause before it is read again', async () => {
    // One partition, all of it in one transaction: while that transaction's pause lasts, nothing of the partition
    // is queued or fetched, and its stored offset does not move, over several checks.
    const { lines } = generated({ customers: 3, months: 1, seed: 9, faults: false, endMonth: '2024-06' });
    await produceLines(kafka.producer(), lines, { topics: [FAILING_TOPIC] });
    const ends = await endOffsets(kafka.broker.bootstrap, [FAILING_TOPIC]);
    const store = await Store.open(path.join(kafka.dir, 'failing.duckdb'), silentLogger);
    const pipeline = buildPipeline(store, silentLogger);
    let failures = 0;
    const failing: BatchIngester = {
      store,
      ingest: async (items, hook) => {
        if (failures < 1) {
          failures++;
          throw new Error('disk full');
        }
        return pipeline.ingest(items, hook);
      },
    };
    const warnings: Line[] = [];
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        warnings.push(JSON.parse(chunk.toString('utf8')) as Line);
        done();
      },
    });
    const ingest = await startConsumer(failing, FAILING_TOPIC, pino({ level: 'warn' }, capture));
    try {
      await until(() => [...ends].every(([k, end]) => (ingest.committedOffsets().get(k) ?? 0n) === end), () => JSON.stringify([...ingest.committedOffsets()].map(String)), 30_000);
    } finally {
      await ingest.stop();
      await store.close();
    }
    expect(failures).toBe(1);
    expect(warnings.map((w) => w.msg)).toEqual(['Kafka batch failed; its partitions will be read again']);
  }, 60_000);
});
