/**
 * Freshness of Kafka ingest under a steady stream: events are produced at a
 * fixed rate in small sends, each transaction carrying its send sequence in
 * its description, while our consumer writes them into DuckDB; the store is
 * polled for them as the API would read them.
 *
 *   node --import tsx bench/kafka-freshness.ts [--rate 2000] [--seconds 40] [--send 50] [--partitions 16] [--batch-rows 10000] [--batch-wait-ms 100]
 *     [--store-customers 0] [--store-order customer|time]
 *
 * With --store-customers N the store first holds N generated customers'
 * 12 months (some 635 events each, ingested from a file, in customer
 * order or sorted by time as a stream would have left it), so that the
 * stream is written into a grown store rather than an empty one.
 * Prints the consumer's lag (produced minus committed) every 5 s, and the
 * time from each transaction's send to its first sight in the store:
 * p50, p99 and the worst.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { queryRows } from '../src/db/rows.js';
import { loadConfig, storeOptions } from '../src/config.js';
import { Store } from '../src/db/store.js';
import { generateEvents } from '../src/generate/index.js';
import { createProducer } from '../src/ingest/kafka-client.js';
import { KafkaIngest } from '../src/ingest/kafka-ingest.js';
import { customerKey } from '../src/ingest/kafka-produce.js';
import { IngestMetrics } from '../src/ingest/metrics.js';
import { buildPipeline } from '../src/app/pipeline.js';
import { createLogger } from '../src/logger.js';
import { writeEventsFile } from '../src/generate/index.js';
import { ingestFile } from '../src/ingest/file-source.js';
import { startMockBroker } from './mock-kafka-broker.js';
import { sortFileByTime } from './sort-by-time.js';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '40' },
    send: { type: 'string', default: '50' },
    partitions: { type: 'string', default: '16' },
    'batch-rows': { type: 'string', default: '10000' },
    'batch-wait-ms': { type: 'string', default: '100' },
    'poll-ms': { type: 'string', default: '50' },
    'store-customers': { type: 'string', default: '0' },
    'store-order': { type: 'string', default: 'customer' },
  },
});
const TOPIC = 'afford.fresh.v1';
const rate = Number(args.rate);
const sendSize = Number(args.send);
const total = rate * Number(args.seconds);
const POLL_MS = Number(args['poll-ms']);
const PREFIX = 'fresh ';
const silent = createLogger('silent');
const out = (line: string): boolean => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seqText = (n: number): string => `${PREFIX}${String(n).padStart(10, '0')}`;

interface Probe {
  seq: number;
  line: string;
  key: string | null;
}

/**
 * Generated events, each transaction once (no later versions or deletions,
 * which would hide the version a probe looks for), described by its sequence.
 */
function stream(): Probe[] {
  const seen = new Set<string>();
  const probes: Probe[] = [];
  for (const line of generateEvents({ customers: Math.ceil(total / 120), months: 3, seed: 7, faults: false, endMonth: '2024-06' })) {
    if (probes.length >= total) break;
    const event = JSON.parse(line) as { type: string; data: { transaction_id?: string; description?: string } };
    if (event.type.startsWith('transaction.') && event.type !== 'transaction.upserted') continue;
    const id = event.data.transaction_id;
    if (id !== undefined) {
      if (seen.has(id)) continue;
      seen.add(id);
      event.data.description = seqText(probes.length);
    }
    probes.push({ seq: id === undefined ? -1 : probes.length, line: JSON.stringify(event), key: customerKey(line) });
  }
  return probes;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const dir = mkdtempSync(path.join(tmpdir(), 'afford-bench-fresh-'));
const broker = await startMockBroker({ [TOPIC]: Number(args.partitions), [`${TOPIC}.dlq`]: 1 });
const store = await Store.open(path.join(dir, 'fresh.duckdb'), silent, storeOptions(loadConfig()));
const storeCustomers = Number(args['store-customers']);
if (storeCustomers > 0) {
  const order = args['store-order'];
  if (order !== 'customer' && order !== 'time') throw new Error(`--store-order is customer or time, not ${order}`);
  // The stored customers' ids end in 'a' (cust-000001a): the stream's customers (cust-000001) are new to the store, as
  // are their transactions and secrets, yet their ids lie among the stored ones, so the store's statistics on
  // customer ids skip only what they would skip for a stream of its own customers.
  const file = path.join(dir, 'grown.ndjson');
  await writeEventsFile({ customers: storeCustomers, months: 12, seed: 11, faults: true, endMonth: '2024-06' }, file);
  const renamed = spawnSync('sed', ['-i', 's/"customer_id":"cust-\\([0-9]*\\)"/"customer_id":"cust-\\1a"/g', file], { stdio: 'inherit' });
  if (renamed.status !== 0) throw new Error(`renaming the stored customers failed (${renamed.status})`);
  if (order === 'time') sortFileByTime(file);
  const grownAt = performance.now();
  const grown = await ingestFile(buildPipeline(store, silent), file, { batchRows: loadConfig().AFFORD_INGEST_BATCH_ROWS });
  rmSync(file);
  out(`store grown first: ${grown.inserted.toLocaleString('en-GB')} transactions of ${storeCustomers} customers in ${order} order, in ${((performance.now() - grownAt) / 1000).toFixed(1)} s`);
}
const transactions: Array<{ rows: number; ms: number }> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    const line = JSON.parse(chunk.toString('utf8')) as { msg?: string; rows?: number; ms?: number };
    if (line.msg === 'Kafka batch committed') transactions.push({ rows: line.rows ?? 0, ms: line.ms ?? 0 });
    done();
  },
});
const ingest = await KafkaIngest.start({
  pipeline: buildPipeline(store, silent),
  metrics: new IngestMetrics(),
  logger: pino({ level: 'info' }, sink),
  settings: {
    connection: { brokers: [broker.bootstrap], clientId: 'bench-fresh', ssl: false },
    groupId: 'bench-fresh',
    topics: [TOPIC],
    shard: { index: 0, count: 1 },
    batchRows: Number(args['batch-rows']),
    batchBytes: 1024 * 1024,
    batchWaitMs: Number(args['batch-wait-ms']),
    sessionTimeoutMs: 30_000,
  },
});
const producer = createProducer({ brokers: [broker.bootstrap], clientId: 'bench-fresh-producer', ssl: false }, silent);
try {
  const probes = stream();
  out(`${probes.length.toLocaleString('en-GB')} events at ${rate} events/s in sends of ${sendSize}, on ${args.partitions} partitions; transactions of up to ${args['batch-rows']} rows, waiting up to ${args['batch-wait-ms']} ms`);
  // One send first, so that the group has joined (the test broker waits 3 s) before the clock starts.
  await producer.send([{ topic: TOPIC, messages: [{ key: 'warm-up', value: '{}' }] }]);
  while ([...ingest.committedOffsets().values()].reduce((a, b) => a + b, 0n) < 1n) await sleep(50);

  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let produced = 1;
  let producing = true;
  const committed = (): number => Number([...ingest.committedOffsets().values()].reduce((a, b) => a + b, 0n));

  const poller = (async () => {
    let lowest = 0;
    while (producing || sentAt.size > 0) {
      await sleep(POLL_MS);
      const rows = await store.read((c) => queryRows<{ d: string }>(c, 'SELECT description AS d FROM transactions WHERE description >= ?', [seqText(lowest)], { d: 'text' }));
      const now = performance.now();
      for (const { d } of rows) {
        const seq = Number(d.slice(PREFIX.length));
        const at = sentAt.get(seq);
        if (at === undefined) continue;
        latencies.push(now - at);
        sentAt.delete(seq);
      }
      lowest = sentAt.size > 0 ? Math.min(...sentAt.keys()) : lowest;
      if (!producing && sentAt.size > 0 && now - (sentAt.get(lowest) ?? now) > 60_000) throw new Error(`${sentAt.size} transactions not visible after 60 s`);
    }
  })();

  const lags: Array<{ s: number; lag: number }> = [];
  const started = performance.now();
  const sampler = setInterval(() => lags.push({ s: (performance.now() - started) / 1000, lag: produced - committed() }), 1000);
  for (let i = 0; i < probes.length; i += sendSize) {
    const slice = probes.slice(i, i + sendSize);
    // Sends are paced to the rate from the start, so a slow send is caught up and the mean rate holds.
    const due = started + (i / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const now = performance.now();
    for (const p of slice) if (p.seq >= 0) sentAt.set(p.seq, now);
    await producer.send([{ topic: TOPIC, messages: slice.map((p) => ({ key: p.key, value: p.line })) }]);
    produced += slice.length;
  }
  const produceSeconds = (performance.now() - started) / 1000;
  producing = false;
  await poller;
  clearInterval(sampler);

  out(`produced ${(produced - 1).toLocaleString('en-GB')} events in ${produceSeconds.toFixed(1)} s: ${Math.round((produced - 1) / produceSeconds).toLocaleString('en-GB')} events/s`);
  const marks = lags.filter((l, i) => i % 5 === 4 || i === lags.length - 1);
  out(`lag (events produced, not yet committed) every 5 s: ${marks.map((l) => `${Math.round(l.s)}s ${l.lag}`).join(', ')}`);
  const during = lags.filter((l) => l.s <= produceSeconds);
  const half = Math.floor(during.length / 2);
  const maxOf = (ls: typeof lags) => ls.reduce((m, l) => Math.max(m, l.lag), 0);
  out(`largest lag: first half ${maxOf(during.slice(0, half))}, second half ${maxOf(during.slice(half))} events`);
  const sum = (f: (t: { rows: number; ms: number }) => number) => transactions.reduce((n, t) => n + f(t), 0);
  out(`${transactions.length} DuckDB transactions, ${Math.round(sum((t) => t.rows) / transactions.length)} events and ${Math.round(sum((t) => t.ms) / transactions.length)} ms each on average`);
  const sorted = [...latencies].sort((a, b) => a - b);
  out(`produce -> visible in the store, ${sorted.length.toLocaleString('en-GB')} transactions (polled every ${POLL_MS} ms): p50 ${Math.round(percentile(sorted, 50))} ms, p99 ${Math.round(percentile(sorted, 99))} ms, worst ${Math.round(sorted.at(-1) ?? NaN)} ms`);
} finally {
  await producer.close();
  await ingest.stop();
  await store.close();
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
}
