import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadLetterPublisher } from '../../src/ingest/dlq.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import type { MessageProducer, OutgoingMessage, SourceMessage } from '../../src/ingest/kafka-types.js';
import { findAhead } from '../../src/ingest/kafka-found-rows.js';
import { KafkaBatchWriter, type BatchIngester, type PartitionChunk } from '../../src/ingest/kafka-writer.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { emptyResult, type RawItem } from '../../src/ingest/types.js';
import { eachFastRow, fastRows, placedRows, type FoundRows } from '../../src/ingest/fast-rows.js';
import { FAST_PATH_MIN_ROWS } from '../../src/ingest/pipeline.js';
import type { FastCustomer } from '../../src/ingest/fast-customers.js';
import { stageFast } from '../../src/ingest/fast-path.js';
import { ensureStage } from '../../src/ingest/write-batch.js';
import { generateEvents } from '../../src/generate/index.js';
import { silentLogger, tempStore } from '../helpers/store.js';

const TOPIC = 'afford.writer-test.v1';

const message = (offset: number, value: string | Buffer): SourceMessage => ({
  offset: String(offset),
  key: Buffer.from(`k${offset}`),
  value: typeof value === 'string' ? Buffer.from(value) : value,
  headers: { h: `v${offset}` },
});

/** A producer that keeps what it is sent. */
function keepingProducer(): MessageProducer & { sent: { topic: string; messages: OutgoingMessage[] }[] } {
  const sent: { topic: string; messages: OutgoingMessage[] }[] = [];
  return {
    sent,
    send: async (topicMessages) => void sent.push(...topicMessages.map((t) => ({ topic: t.topic, messages: [...t.messages] }))),
    close: async () => undefined,
  } as MessageProducer & { sent: { topic: string; messages: OutgoingMessage[] }[] };
}

describe('the Kafka batch writer', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
  });
  afterAll(async () => ctx.cleanup());

  it("hands the pipeline each message as an item: its text, where it came from, and a value that is not UTF-8 refused", async () => {
    // Offsets with gaps, as a compacted topic has; a value that is not UTF-8; a tombstone's missing value.
    const first: PartitionChunk = { topic: TOPIC, partition: 3, messages: [message(10, 'a'), message(12, Buffer.from([0x61, 0xff, 0xfe])), message(15, 'c')] };
    const tombstone: SourceMessage = { offset: '2', key: null, value: null, headers: {} };
    const second: PartitionChunk = { topic: TOPIC, partition: 7, messages: [message(4, 'd'), tombstone] };
    const seen: RawItem[] = [];
    const pipeline: BatchIngester = {
      store: ctx.store,
      ingest: async (items) => {
        seen.push(...items);
        return { ...emptyResult(), read: items.length };
      },
    };
    const writer = new KafkaBatchWriter(pipeline, new DeadLetterPublisher(keepingProducer()), silentLogger);
    await writer.commit([first, second]);
    expect(seen.map((i) => [i.ref.source, i.ref.sourceRef, i.ref.partition, i.ref.offset, i.ref.key, i.raw, i.refused ?? null])).toEqual([
      ['kafka', TOPIC, 3, '10', 'k10', 'a', null],
      ['kafka', TOPIC, 3, '12', 'k12', 'a\ufffd\ufffd', 'the message is not valid UTF-8'],
      ['kafka', TOPIC, 3, '15', 'k15', 'c', null],
      ['kafka', TOPIC, 7, '4', 'k4', 'd', null],
      ['kafka', TOPIC, 7, '2', null, '', null],
    ]);
    // Read in the order a dead letter reads them (refused first), the same.
    const again: RawItem[] = [];
    await new KafkaBatchWriter({ ...pipeline, ingest: async (items) => (again.push(...items), { ...emptyResult(), read: items.length }) }, new DeadLetterPublisher(keepingProducer()), silentLogger).commit([first]);
    expect(again.map((i) => [i.refused ?? null, i.raw])).toEqual([[null, 'a'], ['the message is not valid UTF-8', 'a\ufffd\ufffd'], [null, 'c']]);
  });

  it('hands the pipeline the fast rows found ahead for the queued chunks, at their places in the transaction, however the chunks were split and merged', async () => {
    const lines = [...generateEvents({ customers: 6, months: 12, seed: 5, faults: true, endMonth: '2024-12' })].map((l) => l.trimEnd());
    expect(lines.length - 400).toBeGreaterThan(FAST_PATH_MIN_ROWS);
    const messages = lines.map((l, i) => message(1000 + i, l));
    // Queued as two chunks of one partition and one of another, then written as one transaction that takes parts of each.
    const queued: PartitionChunk[] = [
      { topic: TOPIC, partition: 1, messages: messages.slice(0, 700) },
      { topic: TOPIC, partition: 1, messages: messages.slice(700, 1500) },
      { topic: TOPIC, partition: 2, messages: messages.slice(1500) },
    ];
    queued.forEach((chunk) => findAhead(chunk));
    const written: PartitionChunk[] = [
      { topic: TOPIC, partition: 2, messages: messages.slice(1600) },
      { topic: TOPIC, partition: 1, messages: messages.slice(300, 1500) },
    ];
    let seen: { items: readonly RawItem[]; found?: FoundRows } | undefined;
    const pipeline: BatchIngester = {
      store: ctx.store,
      ingest: async (items, _hook, found) => {
        seen = { items, ...(found ? { found: await found } : {}) };
        return { ...emptyResult(), read: items.length };
      },
    };
    await new KafkaBatchWriter(pipeline, new DeadLetterPublisher(keepingProducer()), silentLogger).commit(written);
    const expected = fastRows([...messages.slice(1600), ...messages.slice(300, 1500)].map((m) => (m.value as Buffer).toString('utf8')));
    // The chunks' texts as found, each placed by a span: the same rows at the same places, as fastRows finds them for the transaction.
    const found = seen?.found as FoundRows;
    expect([...placedRows(found)]).toEqual([...eachFastRow(expected.rows)]);
    expect(found.slow).toEqual(expected.slow);
    expect(found.spans?.length).toBe(found.rows.length);
    // Put together from its messages, a transaction's rows carry no tally of their customers: SQL finds those.
    expect(found.customers).toBeUndefined();
    expect([...eachFastRow(expected.rows)].length).toBeGreaterThan(FAST_PATH_MIN_ROWS);
    // And SQL stages what the spans place: the very rows of stage_transactions that the transaction's own rows give.
    const scratch = await tempStore();
    try {
      const stagedBy = (rows: FoundRows) =>
        scratch.store.write(async (conn) => {
          await stageFast(conn, rows);
          const reader = await conn.runAndReadAll('SELECT * FROM stage_transactions ORDER BY seq');
          await conn.run('DELETE FROM stage_transactions');
          return reader.getRowsJson();
        });
      await scratch.store.writeUntransacted(ensureStage);
      const staged = await stagedBy(found);
      expect(staged.length).toBe([...eachFastRow(expected.rows)].length);
      expect(staged).toEqual(await stagedBy(expected));
    } finally {
      await scratch.cleanup();
    }
    expect(seen?.items.map((i) => i.ref.offset)).toEqual([...messages.slice(1600), ...messages.slice(300, 1500)].map((m) => m.offset));
    // Written whole, each chunk once, the chunks' customer tallies are the transaction's, placed at its positions.
    const whole: PartitionChunk[] = [queued[2] as PartitionChunk, { topic: TOPIC, partition: 1, messages: messages.slice(0, 1500) }];
    await new KafkaBatchWriter(pipeline, new DeadLetterPublisher(keepingProducer()), silentLogger).commit(whole);
    const ofWhole = fastRows([...messages.slice(1500), ...messages.slice(0, 1500)].map((m) => (m.value as Buffer).toString('utf8')));
    const byKey = (cs: readonly FastCustomer[] | undefined) =>
      [...(cs ?? [])].map((c) => ({ ...c, secrets: [...c.secrets].sort() })).sort((a, b) => `${a.client_id}/${a.customer_id}`.localeCompare(`${b.client_id}/${b.customer_id}`));
    expect(seen?.found?.customers).toBeDefined();
    expect(byKey(seen?.found?.customers)).toEqual(byKey(ofWhole.customers));
    expect((ofWhole.customers ?? []).length).toBeGreaterThan(3);
    expect([...placedRows(seen?.found as FoundRows)]).toEqual([...eachFastRow(ofWhole.rows)]);
    // A message whose rows were not looked for ahead leaves the pipeline to find them itself.
    const stray: PartitionChunk = { topic: TOPIC, partition: 3, messages: [message(1, lines[0] as string)] };
    await new KafkaBatchWriter(pipeline, new DeadLetterPublisher(keepingProducer()), silentLogger).commit([...written, stray]);
    expect(seen?.found).toBeUndefined();
  });

  it('publishes each dead letter with its own original message, from any partition of the transaction', async () => {
    const chunks: PartitionChunk[] = [
      { topic: TOPIC, partition: 0, messages: [0, 1, 2, 5, 9].map((o) => message(o, `p0-${o}`)) },
      { topic: TOPIC, partition: 1, messages: [3, 4, 8, 20].map((o) => message(o, `p1-${o}`)) },
    ];
    const producer = keepingProducer();
    const pipeline: BatchIngester = {
      store: ctx.store,
      ingest: async (items, hook) =>
        ctx.store.write(async (conn) => {
          const result = { ...emptyResult(), read: items.length };
          // Dead letters for p0@9, p1@3, p1@20 and p0@0, in that order.
          for (const [partition, offset] of [[0, '9'], [1, '3'], [1, '20'], [0, '0']] as const) {
            const item = items.find((i) => i.ref.partition === partition && i.ref.offset === offset) as RawItem;
            result.deadLetters.push({ raw: item.raw, reason: `bad ${partition}@${offset}`, ref: item.ref });
          }
          await hook?.(conn, result);
          return result;
        }),
    };
    await new KafkaBatchWriter(pipeline, new DeadLetterPublisher(producer), silentLogger).commit(chunks);
    const published = producer.sent.flatMap((t) => t.messages.map((m) => [t.topic, String(m.value), String(m.headers?.['afford-dlq-reason']), String(m.headers?.h)]));
    expect(published).toEqual([
      [`${TOPIC}.dlq`, 'p0-9', 'bad 0@9', 'v9'],
      [`${TOPIC}.dlq`, 'p1-3', 'bad 1@3', 'v3'],
      [`${TOPIC}.dlq`, 'p1-20', 'bad 1@20', 'v20'],
      [`${TOPIC}.dlq`, 'p0-0', 'bad 0@0', 'v0'],
    ]);
  });

  it('makes the stage tables of the store before the consumer joins its group, not in its first transaction', async () => {
    const calls: string[] = [];
    const pipeline: BatchIngester = {
      store: ctx.store,
      prepare: async () => void calls.push('prepare'),
      ingest: async () => {
        calls.push('ingest');
        return emptyResult();
      },
    };
    const ingest = await KafkaIngest.create({
      pipeline,
      metrics: new IngestMetrics(),
      logger: silentLogger,
      settings: {
        // Nothing listens here: create() joins no group and connects to no broker.
        connection: { brokers: ['127.0.0.1:1'], clientId: 'afford-test', ssl: false },
        groupId: 'writer-test',
        topics: [TOPIC],
        shard: { index: 0, count: 1 },
        batchRows: 1000,
        batchBytes: 1024 * 1024,
        batchWaitMs: 10,
        sessionTimeoutMs: 6000,
      },
    });
    expect(calls).toEqual(['prepare']);
    await ingest.stop();
    // A pipeline's prepare makes them on the writer's connection.
    const temp = async () =>
      ctx.store.writeUntransacted(async (conn) => (await conn.runAndReadAll('SELECT table_name FROM duckdb_tables() WHERE temporary ORDER BY 1')).getRows().map((r) => String(r[0])));
    expect(await temp()).not.toContain('stage_transactions');
    await ctx.pipeline.prepare();
    expect(await temp()).toEqual(expect.arrayContaining(['stage_transactions', 'stage_dead_letters', 'tx_events']));
  });

  it('warns while a transaction stays open, saying which step it waits on, and not when it is quick', async () => {
    const lines: { level: number; msg: string; step?: string; rows?: number; offsets?: Record<string, string>; ms?: number }[] = [];
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as (typeof lines)[number]);
        done();
      },
    });
    const logger = pino({ level: 'info' }, capture);
    // A DLQ whose brokers answer late: the transaction waits on it, inside the store's transaction.
    let answerLate = true;
    const lateProducer: MessageProducer = {
      send: async () => {
        if (answerLate) await new Promise((resolve) => setTimeout(resolve, 600));
      },
      close: async () => undefined,
    };
    const chunks: PartitionChunk[] = [{ topic: TOPIC, partition: 2, messages: [message(40, 'x'), message(41, 'y')] }];
    const pipeline: BatchIngester = {
      store: ctx.store,
      ingest: async (items, hook) =>
        ctx.store.write(async (conn) => {
          const result = { ...emptyResult(), read: items.length };
          const item = items.at(-1) as RawItem;
          result.deadLetters.push({ raw: item.raw, reason: 'bad', ref: item.ref });
          await hook?.(conn, result);
          return result;
        }),
    };
    const writer = new KafkaBatchWriter(pipeline, new DeadLetterPublisher(lateProducer), logger, 100);
    await writer.commit(chunks);
    const slow = lines.filter((l) => l.msg === 'a Kafka transaction is taking long');
    expect(slow.length).toBeGreaterThanOrEqual(2);
    expect(slow[0]).toMatchObject({ level: 40, rows: 2, offsets: { [`${TOPIC}#2`]: '40..42' }, step: 'publishing 1 dead letter to the DLQ' });
    // Not before the threshold (libuv's timers count whole milliseconds from the loop's cached time: one may land a millisecond short).
    expect(slow[0]?.ms).toBeGreaterThanOrEqual(99);
    // Repeated while it lasts, each later than the one before.
    expect((slow[1]?.ms ?? 0) > (slow[0]?.ms ?? 0)).toBe(true);
    // The committed line comes after them, and nothing is said once it has committed.
    expect(lines.at(-1)?.msg).toBe('Kafka batch committed');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(lines.at(-1)?.msg).toBe('Kafka batch committed');

    // A transaction quicker than the threshold says nothing of the kind (a threshold a loaded machine cannot reach).
    answerLate = false;
    lines.length = 0;
    await new KafkaBatchWriter(pipeline, new DeadLetterPublisher(lateProducer), logger, 3000).commit([{ topic: TOPIC, partition: 2, messages: [message(42, 'z')] }]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(lines.map((l) => l.msg)).toEqual(['Kafka batch committed']);
  });
});
