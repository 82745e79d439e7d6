import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/rows.js';
import { Store } from '../../src/db/store.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { expectHostileOutcomes } from '../helpers/hostile.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, readTopics } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { sleep } from '../helpers/time.js';
import { rowsAs } from '../helpers/rows.js';

const TOPIC = 'afford.hostile-test.v1';
const REJECTED_TOPIC = 'afford.rejected-test.v1';
const kafka = useKafkaFixture('afford-kafka-hostile-', brokerTopics([TOPIC, REJECTED_TOPIC], 1));
// Kafka itself refuses messages over its size limit; every other hostile line goes through it as it is.
const LINES = HOSTILE_LINES.filter((l) => l.bytes.length < 1024 * 1024);

/** Runs our consumer on one single-partition topic until DuckDB holds it up to `end`. */
async function consumeAll(store: Store, topic: string, groupId: string, end: number): Promise<void> {
  const ingest = await KafkaIngest.start({
    pipeline: buildPipeline(store, silentLogger),
    metrics: new IngestMetrics(),
    logger: silentLogger,
    settings: {
      connection: { brokers: [kafka.broker.bootstrap], clientId: 'afford-test', ssl: false },
      groupId,
      topics: [topic],
      shard: { index: 0, count: 1 },
      batchRows: 7,
      batchBytes: 4 * 1024 * 1024,
      batchWaitMs: 250,
      sessionTimeoutMs: 6000,
    },
  });
  try {
    const deadline = Date.now() + 60_000;
    while ((ingest.committedOffsets().get(`${topic}#0`) ?? 0n) < BigInt(end)) {
      if (Date.now() > deadline) throw new Error(`not caught up: ${String(ingest.committedOffsets().get(`${topic}#0`))}`);
      await sleep(100);
    }
  } finally {
    await ingest.stop();
  }
}

describe('hostile lines through Kafka', () => {
  it('stores or dead-letters each message exactly as expected, with every dead letter on the DLQ and every offset committed once', async () => {
    await kafka.producer().send([{ topic: TOPIC, messages: LINES.map((l) => ({ key: null, value: l.bytes })) }]);
    const store = await Store.open(path.join(kafka.dir, 'hostile.duckdb'), silentLogger);
    await consumeAll(store, TOPIC, 'hostile-test', LINES.length);
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

  it('dead-letters a message the store rejects after validation, alone, on the table and the DLQ, and commits each offset once', async () => {
    const event = (n: number, month: string) =>
      JSON.stringify({
        event_id: `ev-r-${n}`,
        type: 'transaction.upserted',
        occurred_at: '2024-05-01T00:00:00Z',
        client_id: 'client-r',
        customer_id: 'cust-r',
        data: {
          transaction_id: `tx-r-${n}`,
          account_id: 'acc-r',
          credit_debit_indicator: 'credit',
          amount: { value: '5.00', currency: 'GBP' },
          date_time: `${month}-02T09:00:00Z`,
          enrichments: { categories: { l1: { slug: 'income' }, l2: { slug: 'salary' } } },
        },
      });
    const store = await Store.open(path.join(kafka.dir, 'rejected.duckdb'), silentLogger);
    try {
      // April already sums to the largest DECIMAL(18,2) (data from before amounts were bounded): any April event overflows it.
      await buildPipeline(store, silentLogger).ingest([{ raw: event(0, '2024-04'), ref: { source: 'file', sourceRef: 'legacy', lineNumber: 1 } }]);
      await store.write((conn) => conn.run("UPDATE transactions SET amount = 9999999999999999.99 WHERE transaction_id = 'tx-r-0'"));
      const lines = Array.from({ length: 12 }, (_, i) => event(i + 1, i === 5 ? '2024-04' : '2024-03'));
      await kafka.producer().send([{ topic: REJECTED_TOPIC, messages: lines.map((value) => ({ key: 'cust-r', value })) }]);
      await consumeAll(store, REJECTED_TOPIC, 'rejected-test', lines.length);

      const dead = await store.read((c) => rowsAs<{ kafka_offset: string; reason: string }>(c, 'SELECT kafka_offset, reason FROM dead_letters'));
      expect(dead).toEqual([{ kafka_offset: '5', reason: expect.stringMatching(/^store rejected the event: .*DECIMAL\(18,2\)/) }]);
      const dlq = await readTopics(kafka.broker.bootstrap, [`${REJECTED_TOPIC}.dlq`]);
      expect(dlq.map((m) => [m.value, m.headers['afford-dlq-source-offset']])).toEqual([[lines[5], '5']]);
      const stored = await store.read((c) => rowsAs<{ n: number }>(c, "SELECT count(*)::INTEGER AS n FROM transactions WHERE month = DATE '2024-03-01'"));
      expect(stored).toEqual([{ n: 11 }]);
      const offsets = await store.read((c) => queryRows(c, 'SELECT topic, next_offset FROM ingest_offsets'));
      expect(offsets).toEqual([{ topic: REJECTED_TOPIC, next_offset: '12' }]);
    } finally {
      await store.close();
    }
  });
});
