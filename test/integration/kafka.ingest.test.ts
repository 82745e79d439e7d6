import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactDeadLetter } from '../../src/domain/redact.js';
import { Store } from '../../src/db/store.js';
import { DLQ_HEADERS } from '../../src/ingest/dlq.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import type { KafkaIngestSettings } from '../../src/ingest/kafka-settings.js';
import type { BatchIngester } from '../../src/ingest/kafka-writer.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import {
  brokerTopics,
  endOffsets,
  expectedMonthlySums,
  generated,
  groupOffsets,
  readTopics,
  referenceSnapshot,
  snapshot,
  storedMonthlySums,
  TOPICS,
} from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from '../../src/logger.js';
import { rowsAs } from '../helpers/rows.js';

const POISON_TOPIC = 'afford.poison-test.v1';
const SLOW_TOPIC = 'afford.slow-test.v1';

const kafka = useKafkaFixture('afford-kafka-ingest-', brokerTopics([POISON_TOPIC, SLOW_TOPIC], 1));

function settings(groupId: string, topics: readonly string[], sessionTimeoutMs = 6000): KafkaIngestSettings {
  return {
    connection: { brokers: [kafka.broker.bootstrap], clientId: 'afford-test', ssl: false },
    groupId,
    topics: [...topics],
    shard: { index: 0, count: 1 },
    batchRows: 400,
    batchBytes: 1024 * 1024,
    batchWaitMs: 250,
    sessionTimeoutMs,
  };
}

/** Runs our consumer in this process until DuckDB holds every partition up to its end. */
async function consumeAll(
  pipeline: BatchIngester,
  metrics: IngestMetrics,
  groupId: string,
  topics: readonly string[],
  options: { logger?: Logger; sessionTimeoutMs?: number } = {},
): Promise<void> {
  const ends = await endOffsets(kafka.broker.bootstrap, topics);
  const ingest = await KafkaIngest.start({ pipeline, metrics, logger: options.logger ?? silentLogger, settings: settings(groupId, topics, options.sessionTimeoutMs) });
  try {
    // The refresh task's catch-up probe, checked against the ends read here with another client.
    const caughtUp = await ingest.catchUpProbe()();
    const done = () => [...ends].every(([k, end]) => (ingest.committedOffsets().get(k) ?? 0n) >= end);
    expect(await caughtUp()).toBe(done());
    const deadline = Date.now() + 60_000;
    while (!(await caughtUp())) {
      if (Date.now() > deadline) throw new Error(`not caught up: ${JSON.stringify([...ingest.committedOffsets()].map(([k, v]) => [k, String(v)]))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done()).toBe(true);
  } finally {
    await ingest.stop();
  }
}

describe('Kafka ingest into DuckDB', () => {
  it('ingests generated events with faults exactly, with every dead letter in the table and on the DLQ topic', async () => {
    const { lines: events, stats } = generated({ customers: 24, months: 3, seed: 11, faults: true, endMonth: '2024-06' });
    const someCustomer = JSON.parse(events[0] as string) as { customer_id: string; client_id: string };
    const aTransaction = events.find((l) => l.includes('"transaction.upserted"') && l.includes(`"customer_id":"${someCustomer.customer_id}"`)) as string;
    // Another client using the same customer id: its own customer, stored beside the first.
    const sameIdOtherClient = aTransaction.replace(`"client_id":"${someCustomer.client_id}"`, '"client_id":"client-elsewhere"').replace('"event_id":"', '"event_id":"elsewhere-');
    const extras = ['this is not json', '{"type":"transaction.upserted"}', `{"customer_id":"${someCustomer.customer_id}","type":"account.upserted"}`];
    const lines = [...events, ...extras, sameIdOtherClient];
    const expectedDead = stats.expected.deadLetters + extras.length;
    expect(stats.expected.deadLetters).toBeGreaterThan(0);

    const produced = await produceLines(kafka.producer(), lines, { topics: TOPICS });
    expect(produced.messages).toBe(lines.length);
    expect(produced.nullKeys).toBeGreaterThanOrEqual(2);

    const store = await Store.open(path.join(kafka.dir, 'kafka.duckdb'), silentLogger);
    const metrics = new IngestMetrics();
    try {
      await consumeAll(buildPipeline(store, silentLogger), metrics, 'ingest-test', TOPICS);
      const got = await snapshot(store);
      const reference = await referenceSnapshot(kafka.dir, lines);

      expect(got.transactions).toHaveLength(stats.expected.liveTransactions + 1);
      expect(got.deadLetters).toHaveLength(expectedDead);
      expect(await storedMonthlySums(store)).toEqual(expectedMonthlySums(lines));
      expect(got).toEqual(reference);

      const ends = await endOffsets(kafka.broker.bootstrap, TOPICS);
      const offsets = await store.read((c) => rowsAs<{ k: string; next_offset: string }>(c, "SELECT topic || '#' || kafka_partition AS k, next_offset FROM ingest_offsets"));
      expect(new Map(offsets.map((o) => [o.k, BigInt(o.next_offset)]))).toEqual(new Map([...ends].filter(([, end]) => end > 0n)));
      // The group's offsets on Kafka, which serve lag monitoring only (the store's are the truth), reach the same ends.
      expect(await groupOffsets(kafka.broker.bootstrap, 'ingest-test', TOPICS)).toEqual(new Map([...ends].filter(([, end]) => end > 0n)));

      // The table: where each one came from, its key and its exact bytes.
      const dead = await store.read((c) =>
        rowsAs<{ source_ref: string; kafka_partition: number; kafka_offset: string; message_key: string | null; raw: string; reason: string }>(
          c,
          "SELECT source_ref, kafka_partition, kafka_offset, message_key, raw, reason FROM dead_letters WHERE source = 'kafka'",
        ),
      );
      expect(dead).toHaveLength(expectedDead);
      expect(dead.filter((d) => d.message_key === null).map((d) => d.raw).sort()).toEqual(['this is not json', '{"type":"transaction.upserted"}'].sort());
      expect(got.transactions.filter((t) => t['client_id'] === 'client-elsewhere').map((t) => t['customer_id'])).toEqual([someCustomer.customer_id]);

      // The DLQ topics hold exactly the same letters: original key and value, the reason and source as headers
      // (the table keeps the value and reason with their secrets redacted).
      const dlq = await readTopics(kafka.broker.bootstrap, TOPICS.map((t) => `${t}.dlq`));
      const fromDlq = dlq.map((m) => ({
        source_ref: m.headers[DLQ_HEADERS.topic],
        kafka_partition: Number(m.headers[DLQ_HEADERS.partition]),
        kafka_offset: m.headers[DLQ_HEADERS.offset],
        message_key: m.key,
        ...redactDeadLetter(m.value, m.headers[DLQ_HEADERS.reason] ?? ''),
      }));
      expect(dlq.some((m) => m.value.includes('"customer_secret":"secret-'))).toBe(true);
      const order = (a: { raw: string }, b: { raw: string }) => a.raw.localeCompare(b.raw);
      expect(fromDlq.sort(order)).toEqual(dead.sort(order));
      for (const m of dlq) expect(m.topic).toBe(`${m.headers[DLQ_HEADERS.topic]}.dlq`);

      const text = await metrics.registry.metrics();
      expect(text).toContain(`afford_dead_letters_total{source="kafka"} ${expectedDead}`);
      expect(text).toMatch(/afford_events_ingested_total\{source="kafka",type="transaction.upserted",outcome="applied"\} \d+/);
      expect(text).toMatch(/afford_ingest_batch_duration_seconds_count\{source="kafka"\} \d+/);
      expect(text).toMatch(/afford_kafka_committed_offset\{topic="afford.transactions.v1",partition="\d"\} \d+/);
      expect(text).not.toMatch(/afford_kafka_consumer_lag\{[^}]*\} [1-9]/);
    } finally {
      await store.close();
    }
  });

  it('moves a message the store rejects to the dead letters and goes on with its partition', async () => {
    const { lines: events } = generated({ customers: 1, months: 2, seed: 5, faults: false, endMonth: '2024-06' });
    const template = JSON.parse(events.find((l) => l.includes('"transaction.upserted"')) as string) as { data: object };
    const inJanuary2020 = (eventId: string, transactionId: string) =>
      JSON.stringify({ ...template, event_id: eventId, data: { ...template.data, transaction_id: transactionId, date_time: '2020-01-15T10:00:00Z' } });
    const poison = inJanuary2020('ev-poison', 'tx-poison');
    const lines = [...events.slice(0, 30), poison, ...events.slice(30)];
    await produceLines(kafka.producer(), lines, { topics: [POISON_TOPIC] });

    const store = await Store.open(path.join(kafka.dir, 'poison.duckdb'), silentLogger);
    const pipeline = buildPipeline(store, silentLogger);
    // A store failure that validation cannot foresee, for this one event only: its month already sums to the
    // largest DECIMAL(18,2), as data written before amounts were bounded can, so its monthly total overflows.
    await pipeline.ingest([{ raw: inJanuary2020('ev-legacy', 'tx-legacy'), ref: { source: 'file', sourceRef: 'legacy', lineNumber: 1 } }]);
    await store.write((conn) => conn.run("UPDATE transactions SET amount = 9999999999999999.99 WHERE transaction_id = 'tx-legacy'"));
    try {
      await consumeAll(pipeline, new IngestMetrics(), 'poison-test', [POISON_TOPIC]);
      const got = await snapshot(store);
      const reference = await referenceSnapshot(mkdtempSync(path.join(kafka.dir, 'poison-ref-')), events);
      expect(got.transactions.filter((t) => t['transaction_id'] !== 'tx-legacy')).toEqual(reference.transactions);
      expect(got.monthlyTotals.filter((m) => !String(m['month']).startsWith('2020-01'))).toEqual(reference.monthlyTotals);
      const dead = await store.read((c) => rowsAs<{ kafka_offset: string; reason: string; raw: string }>(c, 'SELECT kafka_offset, reason, raw FROM dead_letters'));
      expect(dead).toEqual([{ kafka_offset: '30', reason: expect.stringMatching(/^store rejected the event: .*DECIMAL\(18,2\)/), raw: poison }]);
      const dlq = await readTopics(kafka.broker.bootstrap, [`${POISON_TOPIC}.dlq`]);
      expect(dlq.map((m) => [m.value, m.headers[DLQ_HEADERS.offset]])).toEqual([[poison, '30']]);
      const offsets = await store.read((c) => rowsAs<{ next_offset: string }>(c, 'SELECT next_offset FROM ingest_offsets'));
      expect(offsets).toEqual([{ next_offset: String(lines.length) }]);
    } finally {
      await store.close();
    }
  });

  it('keeps its group membership through a transaction longer than the session timeout', async () => {
    const { lines } = generated({ customers: 1, months: 1, seed: 9, faults: false, endMonth: '2024-06' });
    await produceLines(kafka.producer(), lines.slice(0, 20), { topics: [SLOW_TOPIC] });
    const store = await Store.open(path.join(kafka.dir, 'slow.duckdb'), silentLogger);
    const pipeline = buildPipeline(store, silentLogger);
    let first = true;
    // The first transaction takes twice the 4 s session timeout.
    const slow: BatchIngester = {
      store,
      ingest: async (items, hook) => {
        if (first) {
          first = false;
          await new Promise((r) => setTimeout(r, 8000));
        }
        return pipeline.ingest(items, hook);
      },
    };
    const messages: string[] = [];
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        messages.push((JSON.parse(chunk.toString('utf8')) as { msg: string }).msg);
        done();
      },
    });
    const metrics = new IngestMetrics();
    try {
      await consumeAll(slow, metrics, 'slow-test', [SLOW_TOPIC], { logger: pino({ level: 'info' }, capture), sessionTimeoutMs: 4000 });
      expect(messages.filter((m) => m === 'partitions assigned')).toHaveLength(1);
      expect(await metrics.registry.metrics()).toContain('afford_kafka_consumer_restarts_total 0');
      const offsets = await store.read((c) => rowsAs<{ next_offset: string }>(c, 'SELECT next_offset FROM ingest_offsets'));
      expect(offsets).toEqual([{ next_offset: '20' }]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
