import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { DLQ_HEADERS } from '../../src/ingest/dlq.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, endOffsets, expectedMonthlySums, generated, readTopics, storedMonthlySums, consumeCaughtUp } from '../helpers/kafka-data.js';
import { COMPRESSION, produceRaw, recordBatch } from '../helpers/kafka-raw.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

/**
 * A compressed record batch that afford will not read (one that expands
 * past its bound, or does not decompress) sits between good batches on two
 * partitions of three. The client decodes a whole fetch at once, so such a
 * batch used to fail every fetch it came in, and the consumer stored
 * nothing more on any partition. Now each becomes one dead letter that
 * names its offsets, and every event around it is stored.
 */

const TOPIC = 'afford.refused-batch-test.v1';
const PARTITIONS = 3;
const kafka = useKafkaFixture('afford-kafka-refused-batch-', brokerTopics([TOPIC], PARTITIONS));

describe('Kafka ingest of a record batch its codec refuses', () => {
  it('dead-letters the batch with its offsets, stores the events before and after it, and reads every other partition', async () => {
    const { lines } = generated({ customers: PARTITIONS, months: 2, seed: 11, faults: false, endMonth: '2024-06' });
    const customerOf = (l: string) => (JSON.parse(l) as { customer_id: string }).customer_id;
    const customers = [...new Set(lines.map(customerOf))];
    expect(customers).toHaveLength(PARTITIONS);
    const records = (p: number) => lines.filter((l) => customerOf(l) === customers[p]).map((l) => ({ key: Buffer.from(customers[p] as string), value: Buffer.from(l) }));
    const filler = [1, 2, 3].map((n) => ({ key: null, value: Buffer.from(`filler ${n}`) }));
    // 70 MiB of zeros in some 70 KB of gzip; ZStandard's magic number followed by what is not a frame.
    const bomb = recordBatch(filler, { compression: COMPRESSION.gzip, compress: () => gzipSync(Buffer.alloc(70 * 1024 * 1024)) });
    const damaged = recordBatch(filler, { compression: COMPRESSION.zstd, compress: () => Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02, 0x03]) });

    const refusedAt = new Map<number, string>();
    for (let p = 0; p < PARTITIONS; p++) {
      const all = records(p);
      const half = Math.floor(all.length / 2);
      await produceRaw(kafka.broker.bootstrap, TOPIC, p, recordBatch(all.slice(0, half)));
      if (p < 2) {
        refusedAt.set(p, `${half} to ${half + 2}`);
        await produceRaw(kafka.broker.bootstrap, TOPIC, p, p === 0 ? bomb : damaged);
      }
      await produceRaw(kafka.broker.bootstrap, TOPIC, p, recordBatch(all.slice(half)));
    }
    const ends = await endOffsets(kafka.broker.bootstrap, [TOPIC]);
    expect([...ends.values()].reduce((a, b) => a + b, 0n)).toBe(BigInt(lines.length + 2 * filler.length));

    const store = await Store.open(path.join(kafka.dir, 'refused.duckdb'), silentLogger);
    try {
      expect(await consumeCaughtUp(store, kafka.broker.bootstrap, 'refused-batch-test', [TOPIC])).toEqual(ends);
      // Every event of every partition, the two halves around each refused batch included.
      expect(await storedMonthlySums(store)).toEqual(expectedMonthlySums(lines));
      const dead = await store.read((c) =>
        rowsAs<{ kafka_partition: number; kafka_offset: number; raw: string; reason: string }>(
          c,
          'SELECT kafka_partition, kafka_offset::INTEGER AS kafka_offset, raw, reason FROM dead_letters ORDER BY kafka_partition',
        ),
      );
      expect(dead).toHaveLength(2);
      const [gzipped, zstd] = dead;
      expect(gzipped).toMatchObject({ kafka_partition: 0, raw: '' });
      expect(gzipped?.reason).toBe(
        `the gzip-compressed record batch of 3 records, offsets ${refusedAt.get(0)}, is not read: a gzip-compressed Kafka record batch expands past 64 MiB, the most afford reads; it is refused`,
      );
      expect(zstd).toMatchObject({ kafka_partition: 1, raw: '' });
      expect(zstd?.reason).toMatch(new RegExp(`^the ZStandard-compressed record batch of 3 records, offsets ${refusedAt.get(1)}, is not read: .+`));
      // At the batch's last offset: the partition's offset moved past the batch with its dead letter.
      expect(dead.map((d) => String(d.kafka_offset))).toEqual([0, 1].map((p) => (refusedAt.get(p) as string).split(' to ')[1]));

      const dlq = await readTopics(kafka.broker.bootstrap, [`${TOPIC}.dlq`]);
      // The DLQ's copy of each: no value (the batch was not read), its reason and offsets in the headers.
      expect(dlq.map((m) => [m.headers[DLQ_HEADERS.partition], m.headers[DLQ_HEADERS.offset], m.value, m.headers[DLQ_HEADERS.reason]]).sort()).toEqual(
        dead.map((d) => [String(d.kafka_partition), String(d.kafka_offset), '', d.reason]),
      );
    } finally {
      await store.close();
    }
  });
});
