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
const kafka = useKafkaFixture('afford-kafka-schema-registry-', brokerTopics([TOPIC], 2));
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
});
