import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as snappy from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, endOffsets, expectedMonthlySums, generated, storedMonthlySums, consumeCaughtUp } from '../helpers/kafka-data.js';
import { COMPRESSION, produceRaw, recordBatch } from '../helpers/kafka-raw.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

/**
 * Producers compress their record batches as they are set up to: gzip,
 * Snappy, LZ4 or ZStandard (Java's producer wraps Snappy in its xerial
 * framing). Each partition here holds one customer's events in one of them,
 * produced by kcat (librdkafka, a client other than the one under test), or
 * built byte by byte for Java's framing.
 */

const TOPIC = 'afford.compression-test.v1';
const CODECS = ['gzip', 'snappy', 'lz4', 'zstd'] as const;
const PARTITIONS = CODECS.length + 1;
const kafka = useKafkaFixture('afford-kafka-compression-', brokerTopics([TOPIC], PARTITIONS));

/** Snappy as Java's producer frames it: a header, then blocks of at most `block` bytes, each after its length. */
function xerialSnappy(raw: Buffer, block = 4096): Buffer {
  const header = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]);
  const parts: Buffer[] = [header];
  for (let at = 0; at < raw.length; at += block) {
    const compressed = snappy.compress(raw.subarray(at, at + block));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(compressed.length);
    parts.push(length, compressed);
  }
  return Buffer.concat(parts);
}

describe('Kafka ingest of compressed record batches', () => {
  it('reads batches in gzip, Snappy (plain and in Java framing), LZ4 and ZStandard, and stores every event exactly', async () => {
    const { lines } = generated({ customers: PARTITIONS, months: 2, seed: 8, faults: false, endMonth: '2024-06' });
    const customerOf = (l: string) => (JSON.parse(l) as { customer_id: string }).customer_id;
    const customers = [...new Set(lines.map(customerOf))];
    expect(customers).toHaveLength(PARTITIONS);
    const linesOf = (p: number) => lines.filter((l) => customerOf(l) === customers[p]);

    for (const [p, codec] of CODECS.entries()) {
      const input = linesOf(p).map((l) => `${customers[p]}\t${l}\n`).join('');
      execFileSync('kcat', ['-P', '-b', kafka.broker.bootstrap, '-t', TOPIC, '-p', String(p), '-z', codec, '-K', '\t', '-X', 'linger.ms=50'], { input });
    }
    const java = linesOf(CODECS.length).map((l) => ({ key: Buffer.from(customers[CODECS.length] as string), value: Buffer.from(l) }));
    for (let i = 0; i < java.length; i += 40) {
      await produceRaw(kafka.broker.bootstrap, TOPIC, CODECS.length, recordBatch(java.slice(i, i + 40), { compression: COMPRESSION.snappy, compress: (raw) => xerialSnappy(raw) }));
    }
    const ends = await endOffsets(kafka.broker.bootstrap, [TOPIC]);
    expect([...ends.values()].reduce((a, b) => a + b, 0n)).toBe(BigInt(lines.length));

    const store = await Store.open(path.join(kafka.dir, 'compression.duckdb'), silentLogger);
    try {
      expect(await consumeCaughtUp(store, kafka.broker.bootstrap, 'compression-test', [TOPIC])).toEqual(ends);
      expect(await storedMonthlySums(store)).toEqual(expectedMonthlySums(lines));
      const perCustomer = await store.read((c) => rowsAs<{ customer_id: string; n: number }>(c, 'SELECT customer_id, count(*)::INTEGER AS n FROM transactions GROUP BY 1 ORDER BY 1'));
      expect(perCustomer.map((r) => r.customer_id)).toEqual([...customers].sort());
      expect(await store.read((c) => rowsAs<{ n: number }>(c, 'SELECT count(*)::INTEGER AS n FROM dead_letters'))).toEqual([{ n: 0 }]);
    } finally {
      await store.close();
    }
  });
});
