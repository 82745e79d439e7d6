import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { sleep } from '../helpers/time.js';
import { brokerTopics, endOffsets, generated, TOPICS } from '../helpers/kafka-data.js';
import { expectExactOutcome } from '../helpers/kafka-outcome.js';
import { markerBatch, produceRaw } from '../helpers/kafka-raw.js';
import { Worker } from '../helpers/kafka-worker.js';

const KILLS = 4;
/** The same four topics again, for a transactional producer's events: its markers between them. */
const MARKED = TOPICS.map((t) => t.replace('afford.', 'afford.marked.'));
const PARTITIONS = 4;

const kafka = useKafkaFixture('afford-kafka-crash-', brokerTopics(MARKED, PARTITIONS));

const total = (m: ReadonlyMap<string, bigint>): bigint => [...m.values()].reduce((a, b) => a + b, 0n);

/** Kills the worker four times and stops it once, mid-stream, then lets one read to the ends; the tables must be one clean ingest's. */
async function killRestartAndCheck(topics: readonly string[], group: string, lines: readonly string[], expected: Parameters<typeof expectExactOutcome>[0]['expected']): Promise<void> {
  const ends = await endOffsets(kafka.broker.bootstrap, topics);
  const db = path.join(kafka.dir, `${group}.duckdb`);
  const committed = new Map<string, bigint>();
  // Small batches and a short session, so that kills land between and inside many transactions and restarts rejoin fast.
  const start = () => new Worker({ db, brokers: kafka.broker.bootstrap, groupId: group, topics, batchRows: 80, committed, env: { AFFORD_KAFKA_SESSION_TIMEOUT_MS: '4000' } });

  for (let kill = 0; kill < KILLS; kill++) {
    const worker = start();
    const before = worker.commits;
    await worker.waitFor('some progress', () => worker.commits >= before + 3 + kill * 2);
    await sleep(Math.floor(Math.random() * 120));
    worker.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
    expect(total(committed)).toBeLessThan(total(ends));
  }

  // A clean stop mid-stream: the batch in hand commits, the worker leaves the group and exits 0.
  const stopped = start();
  const before = stopped.commits;
  await stopped.waitFor('some progress', () => stopped.commits >= before + 3);
  stopped.kill('SIGTERM');
  expect(await stopped.exited).toEqual({ code: 0, signal: null });
  expect(stopped.lines.some((l) => l.msg === 'Kafka consumer left the group')).toBe(true);
  expect(total(committed)).toBeLessThan(total(ends));

  const last = start();
  await last.waitForEnds(ends);
  last.kill('SIGTERM');
  expect(await last.exited).toEqual({ code: 0, signal: null });
  expect(last.lines.some((l) => l.msg === 'Kafka consumer left the group')).toBe(true);

  await expectExactOutcome({ db, dir: kafka.dir, bootstrap: kafka.broker.bootstrap, lines, ends, expected, topics });
}

describe('Kafka ingest killed and restarted', () => {
  it('ends with the same tables as one clean ingest of the same events, after SIGKILLs and a SIGTERM mid-stream', async () => {
    const { lines, stats } = generated({ customers: 25, months: 3, seed: 21, faults: true, endMonth: '2024-06' });
    await produceLines(kafka.producer(), lines, { topics: TOPICS });
    expect(total(await endOffsets(kafka.broker.bootstrap, TOPICS))).toBe(BigInt(lines.length));
    await killRestartAndCheck(TOPICS, 'crash-test', lines, stats.expected);
  }, 150_000);

  it("does so too when a transactional producer's markers lie between the events and end every partition", async () => {
    const { lines, stats } = generated({ customers: 25, months: 3, seed: 22, faults: true, endMonth: '2024-06' });
    // Transactions of some 300 events, each ended by a commit marker on every partition.
    for (let at = 0; at < lines.length; at += 300) {
      await produceLines(kafka.producer(), lines.slice(at, at + 300), { topics: MARKED });
      for (const topic of MARKED) for (let p = 0; p < PARTITIONS; p++) await produceRaw(kafka.broker.bootstrap, topic, p, markerBatch('commit'));
    }
    const markers = Math.ceil(lines.length / 300) * MARKED.length * PARTITIONS;
    expect(total(await endOffsets(kafka.broker.bootstrap, MARKED))).toBe(BigInt(lines.length + markers));
    await killRestartAndCheck(MARKED, 'crash-test-marked', lines, stats.expected);
  }, 150_000);
});
