import { expect } from 'vitest';
import type { GenerateStats } from '../../src/generate/index.js';
import { DLQ_HEADERS } from '../../src/ingest/dlq.js';
import { readTopics, referenceSnapshot, snapshot, TOPICS, withStore } from './kafka-data.js';
import { rowsAs } from './rows.js';

/**
 * What every Kafka end-to-end test demands once a worker has consumed to
 * `ends`, whatever happened on the way: the tables equal one clean file
 * ingest of the same lines, every partition's committed offset is its end,
 * and the DLQ topics hold exactly the dead letters of the table (a kill
 * between a DLQ send and the DuckDB commit may repeat a DLQ message; its
 * source headers tell repeats apart).
 */
export async function expectExactOutcome(opts: {
  db: string;
  dir: string;
  bootstrap: string;
  lines: readonly string[];
  ends: ReadonlyMap<string, bigint>;
  expected: GenerateStats['expected'];
  /** The topics consumed, whose DLQ topics are read; the four default ones unless given. */
  topics?: readonly string[];
}): Promise<void> {
  const reference = await referenceSnapshot(opts.dir, opts.lines);
  await withStore(opts.db, async (store) => {
    const got = await snapshot(store);
    expect(got.transactions).toHaveLength(opts.expected.liveTransactions);
    expect(got.deadLetters).toHaveLength(opts.expected.deadLetters);
    expect(got).toEqual(reference);
    const offsets = await store.read((c) => rowsAs<{ k: string; next_offset: string }>(c, "SELECT topic || '#' || kafka_partition AS k, next_offset FROM ingest_offsets"));
    expect(new Map(offsets.map((o) => [o.k, BigInt(o.next_offset)]))).toEqual(new Map([...opts.ends].filter(([, end]) => end > 0n)));
    const table = await store.read((c) => rowsAs<{ k: string }>(c, "SELECT source_ref || '#' || kafka_partition || '@' || kafka_offset AS k FROM dead_letters"));
    const dlq = await readTopics(opts.bootstrap, (opts.topics ?? TOPICS).map((t) => `${t}.dlq`));
    const distinct = new Set(dlq.map((m) => `${m.headers[DLQ_HEADERS.topic]}#${m.headers[DLQ_HEADERS.partition]}@${m.headers[DLQ_HEADERS.offset]}`));
    expect([...distinct].sort()).toEqual(table.map((r) => r.k).sort());
  });
}
