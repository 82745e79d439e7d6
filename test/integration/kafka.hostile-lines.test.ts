import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/rows.js';
import { Store } from '../../src/db/store.js';
import { KafkaIngest } from '../../src/ingest/kafka-consumer.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { IngestPipeline } from '../../src/ingest/pipeline.js';
import { HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { expectHostileOutcomes } from '../helpers/hostile.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, readTopics } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { sleep } from '../helpers/time.js';

const TOPIC = 'afford.hostile-test.v1';
const kafka = useKafkaFixture('afford-kafka-hostile-', brokerTopics([TOPIC], 1));
// Kafka itself refuses messages over its size limit; every other hostile line goes through it as it is.
const LINES = HOSTILE_LINES.filter((l) => l.bytes.length < 1024 * 1024);

describe('hostile lines through Kafka', () => {
  it('stores or dead-letters each message exactly as expected, with every dead letter on the DLQ and every offset committed once', async () => {
    await kafka.producer().send([{ topic: TOPIC, messages: LINES.map((l) => ({ key: null, value: l.bytes })) }]);
    const store = await Store.open(path.join(kafka.dir, 'hostile.duckdb'), silentLogger);
    const ingest = await KafkaIngest.start({
      pipeline: new IngestPipeline(store, silentLogger),
      metrics: new IngestMetrics(),
      logger: silentLogger,
      settings: {
        connection: { brokers: [kafka.broker.bootstrap], clientId: 'afford-test', ssl: false },
        groupId: 'hostile-test',
        topics: [TOPIC],
        shard: { index: 0, count: 1 },
        batchRows: 7,
        batchBytes: 4 * 1024 * 1024,
        sessionTimeoutMs: 6000,
      },
    });
    try {
      const deadline = Date.now() + 60_000;
      while ((ingest.committedOffsets().get(`${TOPIC}#0`) ?? 0n) < BigInt(LINES.length)) {
        if (Date.now() > deadline) throw new Error(`not caught up: ${String(ingest.committedOffsets().get(`${TOPIC}#0`))}`);
        await sleep(100);
      }
    } finally {
      await ingest.stop();
    }
    try {
      expect(LINES.length).toBeGreaterThanOrEqual(60);
      await expectHostileOutcomes(store, LINES, 'kafka_offset', (i) => String(i));
      const offsets = await store.read((c) => queryRows(c, 'SELECT topic, kafka_partition, next_offset FROM ingest_offsets'));
      expect(offsets).toEqual([{ topic: TOPIC, kafka_partition: 0, next_offset: String(LINES.length) }]);
      const dlq = await readTopics(kafka.broker.bootstrap, [`${TOPIC}.dlq`]);
      const deadOffsets = LINES.flatMap((l, i) => (l.outcome === 'stored' ? [] : [String(i)]));
      expect(dlq.map((m) => m.headers['afford-dlq-source-offset'])).toEqual(deadOffsets);
    } finally {
      await store.close();
    }
  });
});
