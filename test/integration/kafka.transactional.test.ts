import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, endOffsets, expectedMonthlySums, generated, storedMonthlySums, testIngestSettings } from '../helpers/kafka-data.js';
import { markerBatch, produceRaw } from '../helpers/kafka-raw.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

/**
 * A transactional producer (Kafka Streams, a connector with exactly-once
 * delivery) ends every transaction with a marker: a record that takes an
 * offset but that no consumer is given. A partition whose last offset is a
 * marker must still count as read to its end, or a refresh waits for an
 * offset that never comes and fails.
 */

const TOPIC = 'afford.transactional-test.v1';
const PARTITIONS = 2;
const kafka = useKafkaFixture('afford-kafka-transactional-', brokerTopics([TOPIC], PARTITIONS));

interface LogLine {
  level: number;
  msg: string;
}

async function consume(store: Store, logged: LogLine[], until: (ingest: KafkaIngest) => Promise<boolean>): Promise<{ caughtUp: boolean; positions: Map<string, bigint> }> {
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(JSON.parse(chunk.toString('utf8')) as LogLine);
        done();
      },
    }),
  );
  const ingest = await KafkaIngest.create({
    pipeline: buildPipeline(store, silentLogger),
    metrics: new IngestMetrics(),
    logger,
    stallCheckMs: 250,
    settings: testIngestSettings(kafka.broker.bootstrap, 'transactional-test', [TOPIC], { rows: 100, waitMs: 50 }),
  });
  // As a refresh does: the ends noted first, then checked until ingestion has reached them.
  const check = await ingest.catchUpProbe()();
  ingest.run();
  try {
    const deadline = Date.now() + 15_000;
    let caughtUp = false;
    while (!(caughtUp = await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // Settled: a few stall checks run past the end.
    if (caughtUp) await until(ingest);
    return { caughtUp, positions: new Map(ingest.committedOffsets()) };
  } finally {
    await ingest.stop();
  }
}

describe('Kafka ingest from a transactional producer', () => {
  it('reads past the transaction markers: every partition counts as read to its end, in memory and in the store, with nothing skipped and nothing warned', async () => {
    const { lines } = generated({ customers: 6, months: 2, seed: 5, faults: false, endMonth: '2024-06' });
    const half = Math.floor(lines.length / 2);
    // Two transactions on every partition, each ended by its commit marker: one in the middle of the partition, one at its end.
    for (const part of [lines.slice(0, half), lines.slice(half)]) {
      await produceLines(kafka.producer(), part, { topics: [TOPIC] });
      for (let p = 0; p < PARTITIONS; p++) await produceRaw(kafka.broker.bootstrap, TOPIC, p, markerBatch('commit'));
    }
    const ends = await endOffsets(kafka.broker.bootstrap, [TOPIC]);
    // Each partition holds its events and two markers.
    expect([...ends.values()].reduce((a, b) => a + b, 0n)).toBe(BigInt(lines.length + 2 * PARTITIONS));

    const store = await Store.open(path.join(kafka.dir, 'transactional.duckdb'), silentLogger);
    try {
      const logged: LogLine[] = [];
      const settle = () => new Promise<boolean>((r) => setTimeout(() => r(true), 800));
      const first = await consume(store, logged, settle);
      expect(first.caughtUp).toBe(true);
      expect(first.positions).toEqual(ends);
      // What the store holds, which a restart starts from, is past the markers too.
      const stored = await store.read((c) => rowsAs<{ k: string; next_offset: string }>(c, "SELECT topic || '#' || kafka_partition AS k, next_offset FROM ingest_offsets"));
      expect(new Map(stored.map((o) => [o.k, BigInt(o.next_offset)]))).toEqual(ends);
      expect(await storedMonthlySums(store)).toEqual(expectedMonthlySums(lines));
      expect(await store.read((c) => rowsAs<{ n: number }>(c, 'SELECT count(*)::INTEGER AS n FROM dead_letters'))).toEqual([{ n: 0 }]);
      // A marker is no lost offset, no seek and no stopped partition.
      expect(logged.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);

      // Started again on the same store: caught up at once, and nothing read twice.
      const transactions = async () => store.read((c) => rowsAs<{ n: number }>(c, 'SELECT count(*)::INTEGER AS n FROM transactions'));
      const before = await transactions();
      const again: LogLine[] = [];
      const second = await consume(store, again, settle);
      expect(second.caughtUp).toBe(true);
      expect(second.positions).toEqual(ends);
      expect(await transactions()).toEqual(before);
      expect(again.filter((l) => l.msg === 'Kafka batch committed')).toEqual([]);
      expect(again.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
