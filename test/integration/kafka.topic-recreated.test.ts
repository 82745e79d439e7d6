import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { createProducer } from '../../src/ingest/kafka-client.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { startMockBroker } from '../../bench/mock-kafka-broker.js';
import { brokerTopics, endOffsets, expectedMonthlySums, generated, storedMonthlySums, testIngestSettings } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

/**
 * A topic deleted and made again (or a partition cut short by an unclean
 * leader election) starts its offsets again from 0, below the offsets the
 * store holds for it. Its new events must be read, not skipped as if they
 * had been read before.
 */

const TOPIC = 'afford.recreated-test.v1';
const dir = mkdtempSync(path.join(tmpdir(), 'afford-kafka-recreated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LogLine {
  level: number;
  msg: string;
}

async function consumeInto(
  store: Store,
  bootstrap: string,
  logged: LogLine[],
  done: (positions: ReadonlyMap<string, bigint>) => Promise<boolean>,
): Promise<{ positions: Map<string, bigint>; caughtUpBefore: boolean; caughtUpAfter: boolean }> {
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, cb) => (logged.push(JSON.parse(chunk.toString('utf8')) as LogLine), cb()) }));
  const ingest = await KafkaIngest.create({
    pipeline: buildPipeline(store, silentLogger),
    metrics: new IngestMetrics(),
    logger,
    settings: testIngestSettings(bootstrap, 'recreated-test', [TOPIC]),
  });
  // As a refresh asked now would: the partitions' ends noted before anything is read.
  const check = await ingest.catchUpProbe()();
  const caughtUpBefore = await check();
  ingest.run();
  try {
    const deadline = Date.now() + 20_000;
    while (!(await done(ingest.committedOffsets())) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return { positions: new Map(ingest.committedOffsets()), caughtUpBefore, caughtUpAfter: await check() };
  } finally {
    await ingest.stop();
  }
}

async function produceOnNewBroker(lines: readonly string[], firstOfPartition0: string): Promise<Awaited<ReturnType<typeof startMockBroker>>> {
  const broker = await startMockBroker(brokerTopics([TOPIC], 2));
  // Offset 0 of partition 0: a line that is no event, put there by kcat.
  execFileSync('kcat', ['-P', '-b', broker.bootstrap, '-t', TOPIC, '-p', '0'], { input: `${firstOfPartition0}\n` });
  const producer = createProducer({ brokers: [broker.bootstrap], clientId: 'afford-test', ssl: false }, silentLogger);
  try {
    await produceLines(producer, lines, { topics: [TOPIC] });
  } finally {
    await producer.close();
  }
  return broker;
}

describe('a topic made again from offset 0', () => {
  it('is read from its start: the new events are stored, and the stored offsets follow the new partitions', async () => {
    const before = generated({ customers: 4, months: 2, seed: 21, faults: false, endMonth: '2024-06' }).lines;
    // Fewer events, of other customers, on the topic made again: every partition ends below its old stored offset.
    const after = generated({ customers: 4, months: 1, seed: 22, faults: false, endMonth: '2024-06' }).lines.map((l) => l.replaceAll('"cust-', '"cust-new-'));
    const store = await Store.open(path.join(dir, 'recreated.duckdb'), silentLogger);
    const transactionsOf = async (prefix: string) =>
      (await store.read((c) => rowsAs<{ n: number }>(c, `SELECT count(*)::INTEGER AS n FROM transactions WHERE customer_id LIKE '${prefix}%'`)))[0]?.n ?? 0;
    const expectedNew = after.filter((l) => l.includes('"transaction.upserted"')).length;
    try {
      const first = await produceOnNewBroker(before, 'not an event, on the first topic');
      const oldEnds = await endOffsets(first.bootstrap, [TOPIC]);
      try {
        await consumeInto(store, first.bootstrap, [], async (positions) => [...oldEnds].every(([k, end]) => positions.get(k) === end));
      } finally {
        await first.stop();
      }
      const stored = new Map((await store.read((c) => rowsAs<{ k: string; next_offset: string }>(c, "SELECT topic || '#' || kafka_partition AS k, next_offset FROM ingest_offsets"))).map((r) => [r.k, BigInt(r.next_offset)]));
      expect(stored).toEqual(oldEnds);

      const second = await produceOnNewBroker(after, 'not an event either, on the topic made again');
      try {
        const newEnds = await endOffsets(second.bootstrap, [TOPIC]);
        for (const [k, end] of newEnds) {
          expect(end).toBeGreaterThan(0n);
          expect(end).toBeLessThan(oldEnds.get(k) as bigint);
        }
        const logged: LogLine[] = [];
        const { positions, caughtUpBefore, caughtUpAfter } = await consumeInto(store, second.bootstrap, logged, async (at) => [...newEnds].every(([k, end]) => at.get(k) === end));
        // The stored offsets are past the new ends: until the partitions are read again, ingestion has not caught up.
        expect(caughtUpBefore).toBe(false);
        expect(caughtUpAfter).toBe(true);
        expect(await transactionsOf('cust-new-')).toBe(expectedNew);
        expect(await storedMonthlySums(store)).toEqual(expectedMonthlySums([...before, ...after]));
        // Each topic's bad message at offset 0 is its own dead letter.
        const dead = await store.read((c) => rowsAs<{ raw: string; kafka_offset: string }>(c, 'SELECT raw, kafka_offset FROM dead_letters ORDER BY dead_letter_id'));
        expect(dead).toEqual([
          { raw: 'not an event, on the first topic', kafka_offset: '0' },
          { raw: 'not an event either, on the topic made again', kafka_offset: '0' },
        ]);
        expect(positions).toEqual(newEnds);
        const warned = logged.filter((l) => l.level === 40 && /past the partition's end/.test(l.msg));
        expect(warned.length).toBeGreaterThan(0);
      } finally {
        await second.stop();
      }
    } finally {
      await store.close();
    }
  });
});
