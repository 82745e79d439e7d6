import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, endOffsets, expectedMonthlySums, generated, readTopics, storedMonthlySums, consumeCaughtUp } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

/**
 * Values as Confluent's JSON Schema serializer writes them: a zero byte, the
 * schema's id in 4 bytes, then the JSON event.
 */

const TOPIC = 'afford.schema-registry-test.v1';
const BINARY = 'afford.schema-registry-binary.v1';
const kafka = useKafkaFixture('afford-kafka-schema-registry-', { ...brokerTopics([TOPIC], 2), ...brokerTopics([BINARY], 1) });
const PREFIX = Buffer.from([0, 0, 0, 0, 7]);

describe('Kafka values in the Schema Registry wire format', () => {
  it('are read as the JSON after the prefix; a bad one is a dead letter of its JSON, and goes to the DLQ as it was sent', async () => {
    const { lines } = generated({ customers: 3, months: 1, seed: 51, faults: false, endMonth: '2024-06' });
    const bad = '{"type":"transaction.upserted","customer_id":"cust-000001"}';
    const keyOf = (l: string) => (JSON.parse(l) as { customer_id: string }).customer_id;
    await kafka.producer().send([{ topic: TOPIC, messages: [...lines, bad].map((l) => ({ key: keyOf(l), value: Buffer.concat([PREFIX, Buffer.from(l)]) })) }]);
    const ends = await endOffsets(kafka.broker.bootstrap, [TOPIC]);

    const store = await Store.open(path.join(kafka.dir, 'schema-registry.duckdb'), silentLogger);
    try {
      expect(await consumeCaughtUp(store, kafka.broker.bootstrap, 'schema-registry-test', [TOPIC])).toEqual(ends);
      expect(await storedMonthlySums(store)).toEqual(expectedMonthlySums(lines));
      const dead = await store.read((c) => rowsAs<{ raw: string }>(c, 'SELECT raw FROM dead_letters'));
      expect(dead).toEqual([{ raw: bad }]);
      const dlq = await readTopics(kafka.broker.bootstrap, [`${TOPIC}.dlq`]);
      expect(dlq.map((m) => m.value)).toEqual([`${PREFIX.toString('latin1')}${bad}`]);
    } finally {
      await store.close();
    }
  });

  it('holding Avro or Protobuf rather than JSON are dead letters whose reason says so, and go to the DLQ as they were sent', async () => {
    const topic = BINARY;
    // Avro: a record of two strings, each its zig-zag length then its bytes (valid UTF-8, NUL bytes and all);
    // Protobuf: the serializer's message index (0), then field 1 as a string and field 2 as the varint 150 (0x96 0x01: not UTF-8).
    const avro = Buffer.concat([PREFIX, Buffer.from([0x16]), Buffer.from('cust-000001'), Buffer.from([0x06]), Buffer.from('GBP')]);
    const protobuf = Buffer.concat([Buffer.from([0, 0, 0, 1, 2, 0x00, 0x0a, 0x03]), Buffer.from('abc'), Buffer.from([0x10, 0x96, 0x01])]);
    // A zero byte and fewer than the prefix's 5 bytes: not the wire format, and not JSON either.
    const short = Buffer.from([0, 0, 7]);
    await kafka.producer().send([{ topic, messages: [avro, protobuf, short].map((value) => ({ key: 'cust-000001', value })) }]);
    const ends = await endOffsets(kafka.broker.bootstrap, [topic]);

    const store = await Store.open(path.join(kafka.dir, 'schema-registry-binary.duckdb'), silentLogger);
    try {
      expect(await consumeCaughtUp(store, kafka.broker.bootstrap, 'schema-registry-binary-test', [topic])).toEqual(ends);
      const dead = await store.read((c) => rowsAs<{ kafka_offset: number; reason: string }>(c, 'SELECT kafka_offset::INTEGER AS kafka_offset, reason FROM dead_letters ORDER BY kafka_offset'));
      const notRead = (id: number) =>
        `the value is in the Schema Registry wire format (schema id ${id}), but what follows its prefix is not JSON: afford reads JSON events, plain or from the JSON Schema serializer, not Avro or Protobuf`;
      expect(dead.slice(0, 2)).toEqual([
        { kafka_offset: 0, reason: notRead(7) },
        { kafka_offset: 1, reason: notRead(258) },
      ]);
      expect(dead[2]?.reason).toMatch(/^invalid JSON/);
      const dlq = await readTopics(kafka.broker.bootstrap, [`${topic}.dlq`]);
      expect(dlq.map((m) => m.headers['afford-dlq-reason'])).toEqual(dead.map((d) => d.reason));
      expect(dlq[0]?.value).toBe(avro.toString('utf8'));
      expect(await store.read((c) => rowsAs<{ n: number }>(c, 'SELECT count(*)::INTEGER AS n FROM transactions'))).toEqual([{ n: 0 }]);
    } finally {
      await store.close();
    }
  });
});
