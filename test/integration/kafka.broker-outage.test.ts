import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { sleep } from '../helpers/time.js';
import { endOffsets, generated, TOPICS } from '../helpers/kafka-data.js';
import { expectExactOutcome } from '../helpers/kafka-outcome.js';
import { Worker } from '../helpers/kafka-worker.js';

const kafka = useKafkaFixture('afford-kafka-outage-');

const produce = async (lines: readonly string[]) => produceLines(kafka.producer(), lines, { topics: TOPICS });

describe('a broker outage', () => {
  it('is logged and outlived: consumption resumes by itself and the end state is exact', async () => {
    const { lines, stats } = generated({ customers: 16, months: 3, seed: 41, faults: true, endMonth: '2024-06' });
    const half = Math.floor(lines.length / 2);
    await produce(lines.slice(0, half));

    const db = path.join(kafka.dir, 'worker.duckdb');
    const worker = new Worker({ db, brokers: kafka.broker.bootstrap, groupId: 'outage-test', topics: TOPICS, batchRows: 50, env: { AFFORD_KAFKA_SESSION_TIMEOUT_MS: '4000' } });
    await worker.waitFor('some progress', () => worker.commits >= 4);

    await kafka.broker.down();
    const linesAtDown = worker.lines.length;
    await sleep(6000);
    expect(worker.running).toBe(true);
    const outage = worker.lines.slice(linesAtDown).filter((l) => (l.level ?? 0) >= 40);
    expect(outage.length).toBeGreaterThan(0);
    const commitsWhileDown = worker.commits;
    await sleep(500);
    expect(worker.commits).toBe(commitsWhileDown);

    await kafka.broker.up();
    await produce(lines.slice(half));
    const ends = await endOffsets(kafka.broker.bootstrap, TOPICS);
    await worker.waitForEnds(ends, 90_000);
    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });

    await expectExactOutcome({ db, dir: kafka.dir, bootstrap: kafka.broker.bootstrap, lines, ends, expected: stats.expected });
  }, 120_000);
});
