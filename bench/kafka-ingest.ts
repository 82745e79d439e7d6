/**
 * Kafka ingest rate against the test broker, next to a bare kafkajs consumer
 * reading the same topic in the same run:
 *
 *   node --import tsx bench/kafka-ingest.ts [--customers 300] [--months 3] [--partitions 16] [--batch-rows 25000] [--batch-wait-ms 100] [--produce-batch 1000] [--rounds 1] [--order KF]
 *
 * Both rates run from the moment the group assigns partitions to the moment
 * the last event is consumed (for ours: committed to DuckDB), so the mock
 * broker's fixed 3 s join delay counts for neither. The file ingest of the
 * same events is printed too, with the ratio of the two; both open the store
 * with afford's settings (AFFORD_DB_THREADS and the rest). With --rounds N
 * the Kafka ingest (a new consumer group each time, into a fresh store) and
 * the file ingest alternate N times, taking turns at going first (the
 * first to run in the process runs on code V8 has not optimised yet), and
 * the medians are compared: one round's ratio swings by a tenth. With
 * --order, every round runs that sequence instead (K a Kafka ingest, F a
 * file ingest: `KKKKFFFF` shows how each warms up in the process, `K` or
 * `F` with --rounds 1 each runs alone in a fresh process). Both clocks
 * start once the fast path's thread is started and ready: a consumer starts
 * it before it joins its group, and the join gives it the time.
 *
 * The test broker keeps only about 5 MB a partition and drops the oldest
 * messages beyond it; the bench checks after producing that nothing was
 * dropped, since a consumer waiting for events no longer there waits forever.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { loadConfig, storeOptions } from '../src/config.js';
import { Store } from '../src/db/store.js';
import { generateEvents } from '../src/generate/index.js';
import { ingestFile } from '../src/ingest/file-source.js';
import { fastValidator } from '../src/ingest/fast-validator.js';
import { createProducer } from '../src/ingest/kafka-client.js';
import { KafkaIngest } from '../src/ingest/kafka-ingest.js';
import { produceLines } from '../src/ingest/kafka-produce.js';
import { IngestMetrics } from '../src/ingest/metrics.js';
import { buildPipeline } from '../src/app/pipeline.js';
import { createLogger } from '../src/logger.js';
import { startMockBroker } from './mock-kafka-broker.js';

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '300' },
    months: { type: 'string', default: '3' },
    partitions: { type: 'string', default: '16' },
    'batch-rows': { type: 'string', default: '25000' },
    'batch-wait-ms': { type: 'string', default: '100' },
    // The mock broker answers a fetch with one record batch per partition, so this sets the size of fetched batches.
    'produce-batch': { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '1' },
    order: { type: 'string' },
  },
});
if (args.order !== undefined && !/^[KF]+$/.test(args.order)) throw new Error(`--order is a sequence of K (Kafka) and F (file), not ${args.order}`);
const TOPIC = 'afford.bench.v1';
const partitions = Number(args.partitions);
const silent = createLogger('silent');
const out = (line: string): boolean => process.stdout.write(`${line}\n`);
const rate = (events: number, ms: number): string => `${Math.round(events / (ms / 1000)).toLocaleString('en-GB')} events/s`;
const STALL_MS = 60_000;

/** Waits for `done`, failing loudly when `progress` stops moving for a minute rather than hanging. */
async function until(what: string, done: () => boolean, progress: () => bigint): Promise<void> {
  let last = progress();
  let movedAt = performance.now();
  while (!done()) {
    await new Promise((r) => setTimeout(r, 5));
    const now = progress();
    if (now !== last) [last, movedAt] = [now, performance.now()];
    else if (performance.now() - movedAt > STALL_MS) throw new Error(`${what}: no progress for ${STALL_MS / 1000} s at ${now}`);
  }
}

/** Partition ends after producing; the broker must still hold every message from offset 0. */
async function topicEnds(bootstrap: string): Promise<bigint> {
  const admin = new Kafka({ clientId: 'bench-admin', brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(TOPIC);
    const dropped = offsets.reduce((n, o) => n + Number(o.low), 0);
    if (dropped > 0) {
      throw new Error(`the test broker dropped the oldest ${dropped} events (it keeps about 5 MB a partition): use more --partitions or fewer --customers`);
    }
    return offsets.reduce((n, o) => n + BigInt(o.high), 0n);
  } finally {
    await admin.disconnect();
  }
}

/** The bare baseline: a kafkajs group consumer whose eachBatch only counts. */
async function bareKafkajs(bootstrap: string, expected: number): Promise<number> {
  const consumer = new Kafka({ clientId: 'bench-bare', brokers: [bootstrap], logLevel: logLevel.NOTHING }).consumer({ groupId: 'bench-bare', maxWaitTimeInMs: 1000 });
  await consumer.connect();
  await consumer.subscribe({ topics: [TOPIC], fromBeginning: true });
  let assignedAt = 0;
  consumer.on(consumer.events.GROUP_JOIN, () => {
    assignedAt = performance.now();
  });
  let seen = 0;
  await consumer.run({
    eachBatch: async ({ batch }) => {
      seen += batch.messages.length;
    },
  });
  await until('bare kafkajs consume', () => seen >= expected, () => BigInt(seen));
  const ms = performance.now() - assignedAt;
  await consumer.disconnect();
  return ms;
}

/** Our consumer into a fresh DuckDB file; the start is read off its 'partitions assigned' log line. */
async function afford(bootstrap: string, expected: number, dir: string, run: number, batchRows: number, batchWaitMs: number): Promise<{ ms: number; dbBytes: number; transactions: number; rowsEach: number; msEach: number }> {
  let assignedAt = 0;
  const transactions: { rows: number; ms: number }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString('utf8')) as { msg?: string; rows?: number; ms?: number };
      if (!assignedAt && line.msg === 'partitions assigned') assignedAt = performance.now();
      if (line.msg === 'Kafka batch committed') transactions.push({ rows: line.rows ?? 0, ms: line.ms ?? 0 });
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const file = path.join(dir, `kafka-${run}.duckdb`);
  const store = await Store.open(file, silent, storeOptions(loadConfig()));
  const ingest = await KafkaIngest.start({
    pipeline: buildPipeline(store, silent),
    metrics: new IngestMetrics(),
    logger,
    settings: {
      connection: { brokers: [bootstrap], clientId: 'bench-afford', ssl: false },
      groupId: `bench-afford-${run}`,
      topics: [TOPIC],
      shard: { index: 0, count: 1 },
      batchRows,
      batchBytes: 1024 * 1024,
      batchWaitMs,
      sessionTimeoutMs: 30_000,
    },
  });
  const total = () => [...ingest.committedOffsets().values()].reduce((a, b) => a + b, 0n);
  await until('afford Kafka ingest', () => total() >= BigInt(expected), total);
  const ms = performance.now() - assignedAt;
  await ingest.stop();
  await store.close();
  const sum = (f: (t: { rows: number; ms: number }) => number) => transactions.reduce((n, t) => n + f(t), 0);
  return { ms, dbBytes: statSync(file).size, transactions: transactions.length, rowsEach: sum((t) => t.rows) / transactions.length, msEach: sum((t) => t.ms) / transactions.length };
}

async function fileIngest(file: string, dir: string, run: number, batchRows: number): Promise<number> {
  const store = await Store.open(path.join(dir, `file-${run}.duckdb`), silent, storeOptions(loadConfig()));
  const pipeline = buildPipeline(store, silent);
  await pipeline.prepare();
  // A consumer's thread has the group's join to get ready in; the file's gets the same before its clock starts.
  for (const until = performance.now() + 30_000; !fastValidator.isReady && performance.now() < until; ) await new Promise((r) => setTimeout(r, 5));
  const started = performance.now();
  await ingestFile(pipeline, file, { batchRows });
  const ms = performance.now() - started;
  await store.close();
  return ms;
}

const dir = mkdtempSync(path.join(tmpdir(), 'afford-bench-kafka-'));
const broker = await startMockBroker({ [TOPIC]: partitions, [`${TOPIC}.dlq`]: 1 });
try {
  const lines = [...generateEvents({ customers: Number(args.customers), months: Number(args.months), seed: 1, faults: true, endMonth: '2024-06' })];
  const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
  out(`events: ${lines.length.toLocaleString('en-GB')} (${(bytes / 1e6).toFixed(1)} MB, ${(bytes / partitions / 1e6).toFixed(1)} MB a partition) on ${partitions} partitions of ${TOPIC}`);

  const producer = createProducer({ brokers: [broker.bootstrap], clientId: 'bench', ssl: false }, silent);
  const produceStart = performance.now();
  await produceLines(producer, lines, { topics: [TOPIC], batchMessages: Number(args['produce-batch']) });
  out(`afford produce:               ${rate(lines.length, performance.now() - produceStart)} (${args['produce-batch']} messages a request)`);
  await producer.close();
  const ends = await topicEnds(broker.bootstrap);
  if (ends !== BigInt(lines.length)) throw new Error(`produced ${lines.length} events but the topic holds ${ends}`);

  const batchRows = Number(args['batch-rows']);
  const batchWaitMs = Number(args['batch-wait-ms']);
  const bare = await bareKafkajs(broker.bootstrap, lines.length);
  out(`bare kafkajs eachBatch:       ${rate(lines.length, bare)} (${(bare / 1000).toFixed(1)} s)`);
  const eventsFile = path.join(dir, 'events.ndjson');
  writeFileSync(eventsFile, lines.map((l) => `${l}\n`).join(''));
  const kafkaMs: number[] = [];
  const fileMs: number[] = [];
  // Each run's store and consumer group are its own.
  let runs = 0;
  for (let round = 0; round < Number(args.rounds); round++) {
    const kafkaRound = async (): Promise<void> => {
      const ours = await afford(broker.bootstrap, lines.length, dir, runs++, batchRows, batchWaitMs);
      kafkaMs.push(ours.ms);
      out(`afford Kafka -> DuckDB:       ${rate(lines.length, ours.ms)} (${(ours.ms / 1000).toFixed(1)} s, batches of up to ${batchRows} rows, ${(ours.dbBytes / 1e6).toFixed(0)} MB file)`);
      out(`  ${ours.transactions} DuckDB transactions, ${Math.round(ours.rowsEach)} events and ${Math.round(ours.msEach)} ms each on average`);
    };
    const fileRound = async (): Promise<void> => {
      const file = await fileIngest(eventsFile, dir, runs++, batchRows);
      fileMs.push(file);
      out(`afford ingest file, same events: ${rate(lines.length, file)} (${(file / 1000).toFixed(1)} s, batches of up to ${batchRows} rows)`);
    };
    // Whichever runs first in the process runs on code not yet optimised: the two take turns at going first.
    const order = args.order ?? (round % 2 === 0 ? 'KF' : 'FK');
    for (const c of order) await (c === 'K' ? kafkaRound : fileRound)();
    if (order.includes('K') && order.includes('F')) out(`  this round's Kafka / file: ${((fileMs.at(-1) as number) / (kafkaMs.at(-1) as number)).toFixed(3)}`);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const kafka = median(kafkaMs);
  const file = median(fileMs);
  const runsSaid = args.order === undefined ? `${kafkaMs.length} alternating rounds` : `${kafkaMs.length} Kafka and ${fileMs.length} file runs`;
  out(`medians of ${runsSaid}: Kafka ${kafkaMs.length ? rate(lines.length, kafka) : 'not run'}, file ${fileMs.length ? rate(lines.length, file) : 'not run'}`);
  if (kafkaMs.length) out(`ratio afford / bare kafkajs:  ${(bare / kafka).toFixed(3)}`);
  if (kafkaMs.length && fileMs.length) out(`ratio afford Kafka / file:    ${(file / kafka).toFixed(3)}`);
  out(`load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
} finally {
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
}
