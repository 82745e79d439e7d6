import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import { decodeShardClaim, encodeShardClaim, planShardAssignment } from '../../src/ingest/shard-assigner.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { sleep } from '../helpers/time.js';
import { endOffsets, generated, referenceSnapshot, snapshot, TOPICS, withStore, type Snapshot } from '../helpers/kafka-data.js';
import { Worker } from '../helpers/kafka-worker.js';
import { rowsAs } from '../helpers/rows.js';

const kafka = useKafkaFixture('afford-kafka-shard-');

const partitionOf = (key: string): number => Number(key.split('#')[1]);
const only = (ends: ReadonlyMap<string, bigint>, shard: number) => new Map([...ends].filter(([k]) => partitionOf(k) % 2 === shard));

/** Every partition a worker was ever given, from its "partitions assigned" lines. */
function partitionsEverAssigned(worker: Worker): number[] {
  const seen = new Set<number>();
  for (const line of worker.lines) {
    if (line.msg !== 'partitions assigned' || !line.assignment) continue;
    for (const partitions of Object.values(line.assignment)) for (const p of partitions) seen.add(p);
  }
  return [...seen].sort();
}

function sortedUnion(a: Snapshot, b: Snapshot, table: keyof Snapshot): string[] {
  return [...a[table], ...b[table]].map((r) => JSON.stringify(r)).sort();
}

describe('two shards in one consumer group', () => {
  it('plans partition p for the member of shard p mod n, and for nobody while that shard is away', () => {
    const partitions = new Map([['t', [0, 1, 2, 3, 4, 5]]]);
    const both = planShardAssignment(
      [
        { memberId: 'b', shard: decodeShardClaim(encodeShardClaim({ index: 1, count: 2 })), topics: ['t'] },
        { memberId: 'a', shard: decodeShardClaim(encodeShardClaim({ index: 0, count: 2 })), topics: ['t'] },
      ],
      partitions,
    );
    expect(Object.fromEntries(both.assignments)).toEqual({ a: { t: [0, 2, 4] }, b: { t: [1, 3, 5] } });
    const alone = planShardAssignment([{ memberId: 'a', shard: { index: 0, count: 2 }, topics: ['t'] }], partitions);
    expect(Object.fromEntries(alone.assignments)).toEqual({ a: { t: [0, 2, 4] } });
    expect(alone.unassigned).toEqual({ t: [1, 3, 5] });
    const twins = planShardAssignment(
      [
        { memberId: 'y', shard: { index: 0, count: 1 }, topics: ['t'] },
        { memberId: 'x', shard: { index: 0, count: 1 }, topics: ['t'] },
      ],
      partitions,
    );
    expect(Object.fromEntries(twins.assignments)).toEqual({ x: { t: [0, 1, 2, 3, 4, 5] }, y: {} });
    expect(decodeShardClaim(Buffer.from('garbage'))).toBeNull();
  });

  it('keeps each customer in one DuckDB file, even when a worker dies and comes back', async () => {
    const { lines } = generated({ customers: 24, months: 2, seed: 31, faults: true, endMonth: '2024-06' });
    const half = Math.floor(lines.length / 2);
    await produceLines(kafka.producer(), lines.slice(0, half), { topics: TOPICS });
    const firstEnds = await endOffsets(kafka.broker.bootstrap, TOPICS);

    const committed = [new Map<string, bigint>(), new Map<string, bigint>()];
    const dbs = [path.join(kafka.dir, 'shard-0.duckdb'), path.join(kafka.dir, 'shard-1.duckdb')];
    const start = (shard: number) =>
      new Worker({
        db: dbs[shard] as string,
        brokers: kafka.broker.bootstrap,
        groupId: 'shard-test',
        topics: TOPICS,
        shard: `${shard}/2`,
        batchRows: 200,
        committed: committed[shard],
        env: { AFFORD_KAFKA_SESSION_TIMEOUT_MS: '4000' },
      });

    const a = start(0);
    let b = start(1);
    await Promise.all([a.waitForEnds(only(firstEnds, 0)), b.waitForEnds(only(firstEnds, 1))]);

    // Shard 1 dies without leaving; the rest of the events arrive while it is away.
    const assignments = () => a.lines.filter((l) => l.msg === 'partitions assigned').length;
    const assignedBefore = assignments();
    b.kill('SIGKILL');
    await b.exited;
    await produceLines(kafka.producer(), lines.slice(half), { topics: TOPICS });
    const ends = await endOffsets(kafka.broker.bootstrap, TOPICS);
    await a.waitForEnds(only(ends, 0));
    // Long enough for the group to drop the dead member and rebalance: its partitions must wait, not move.
    await a.waitFor('a rebalance without shard 1', () => assignments() > assignedBefore, 30_000);
    await sleep(1500);
    expect([...committed[1] as Map<string, bigint>].every(([k, v]) => v === (firstEnds.get(k) ?? 0n))).toBe(true);

    b = start(1);
    await b.waitForEnds(only(ends, 1));
    a.kill('SIGTERM');
    b.kill('SIGTERM');
    expect(await a.exited).toEqual({ code: 0, signal: null });
    expect(await b.exited).toEqual({ code: 0, signal: null });
    expect(partitionsEverAssigned(a)).toEqual([0, 2]);
    expect(partitionsEverAssigned(b)).toEqual([1, 3]);

    const [s0, s1] = [await withStore(dbs[0] as string, snapshot), await withStore(dbs[1] as string, snapshot)];
    const offsets = await Promise.all(
      dbs.map((db) => withStore(db, (s) => s.read((c) => rowsAs<{ kafka_partition: number; next_offset: string }>(c, 'SELECT kafka_partition, next_offset FROM ingest_offsets')))),
    );
    // Every message was consumed by exactly one shard, each from its own partitions.
    offsets.forEach((rows, shard) => expect(rows.every((r) => r.kafka_partition % 2 === shard)).toBe(true));
    expect(offsets.flat().reduce((sum, r) => sum + BigInt(r.next_offset), 0n)).toBe(BigInt(lines.length));

    const customers = s0.customers.map((c) => c.customer_id);
    expect(customers.length).toBeGreaterThan(0);
    expect(s1.customers.length).toBeGreaterThan(0);
    expect(s1.customers.filter((c) => customers.includes(c.customer_id))).toEqual([]);
    for (const s of [s0, s1]) {
      const own = new Set(s.customers.map((c) => c.customer_id));
      expect(s.transactions.every((t) => own.has(t.customer_id as string))).toBe(true);
      expect(s.monthlyTotals.every((t) => own.has(t.customer_id as string))).toBe(true);
    }

    const reference = await referenceSnapshot(kafka.dir, lines);
    for (const table of Object.keys(reference) as (keyof Snapshot)[]) {
      expect(sortedUnion(s0, s1, table), table).toEqual(reference[table].map((r) => JSON.stringify(r)).sort());
    }
  }, 120_000);
});
