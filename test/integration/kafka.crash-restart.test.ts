import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { sleep } from '../helpers/time.js';
import { endOffsets, generated, TOPICS } from '../helpers/kafka-data.js';
import { expectExactOutcome } from '../helpers/kafka-outcome.js';
import { Worker } from '../helpers/kafka-worker.js';

const KILLS = 4;

const kafka = useKafkaFixture('afford-kafka-crash-');

const total = (m: ReadonlyMap<string, bigint>): bigint => [...m.values()].reduce((a, b) => a + b, 0n);

describe('Kafka ingest killed and restarted', () => {
  it('ends with the same tables as one clean ingest of the same events, after SIGKILLs and a SIGTERM mid-stream', async () => {
    const { lines, stats } = generated({ customers: 25, months: 3, seed: 21, faults: true, endMonth: '2024-06' });
    await produceLines(kafka.producer(), lines, { topics: TOPICS });
    const ends = await endOffsets(kafka.broker.bootstrap, TOPICS);
    expect(total(ends)).toBe(BigInt(lines.length));

    const db = path.join(kafka.dir, 'worker.duckdb');
    const committed = new Map<string, bigint>();
    // Small batches and a short session, so that kills land between and inside many transactions and restarts rejoin fast.
    const start = () =>
      new Worker({ db, brokers: kafka.broker.bootstrap, groupId: 'crash-test', topics: TOPICS, batchRows: 80, committed, env: { AFFORD_KAFKA_SESSION_TIMEOUT_MS: '4000' } });

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

    await expectExactOutcome({ db, dir: kafka.dir, bootstrap: kafka.broker.bootstrap, lines, ends, expected: stats.expected });
  }, 150_000);
});
