import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { Kafka, logLevel } from 'kafkajs';
import { Decimal } from 'decimal.js';
import { generateEvents, type GenerateOptions, type GenerateStats } from '../../src/generate/index.js';
import { parseEvent } from '../../src/domain/events.js';
import { Store } from '../../src/db/store.js';
import { queryRows } from '../../src/db/rows.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import type { KafkaIngestSettings } from '../../src/ingest/kafka-settings.js';
import { KafkaIngest } from '../../src/ingest/kafka-ingest.js';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { silentLogger } from './store.js';
import { rowsAs } from './rows.js';

/**
 * Events, reference results and read-backs for the Kafka tests. The checks
 * read Kafka with kafkajs directly, not through the code under test.
 */

export const TOPICS = ['afford.transactions.v1', 'afford.accounts.v1', 'afford.customers.v1', 'afford.payments.v1'] as const;

/** The four topics with `partitions` each, and their DLQ topics. */
export function brokerTopics(topics: readonly string[], partitions: number): Record<string, number> {
  return Object.fromEntries(topics.flatMap((t) => [[t, partitions], [`${t}.dlq`, 1]]));
}

export function generated(opts: GenerateOptions): { lines: string[]; stats: GenerateStats } {
  const it = generateEvents(opts);
  const lines: string[] = [];
  for (;;) {
    const step = it.next();
    if (step.done) return { lines, stats: step.value };
    lines.push(step.value);
  }
}

export function writeLines(dir: string, name: string, lines: readonly string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  return file;
}

/** A test consumer's settings: one shard, a megabyte a fetch, short waits; transactions of `batchRows` events. */
export function testIngestSettings(bootstrap: string, groupId: string, topics: readonly string[], batch: { rows: number; waitMs: number } = { rows: 200, waitMs: 50 }): KafkaIngestSettings {
  return {
    connection: { brokers: [bootstrap], clientId: 'afford-test', ssl: false },
    groupId,
    topics: [...topics],
    shard: { index: 0, count: 1 },
    batchRows: batch.rows,
    batchBytes: 1024 * 1024,
    batchWaitMs: batch.waitMs,
    sessionTimeoutMs: 6000,
  };
}

/**
 * Runs a consumer of `topics` into `store` until its catch-up check says it
 * has read to the ends it found as it started (or 20 s have passed), stops
 * it, and returns the offsets it committed.
 */
export async function consumeCaughtUp(store: Store, bootstrap: string, groupId: string, topics: readonly string[]): Promise<Map<string, bigint>> {
  const ingest = await KafkaIngest.create({
    pipeline: buildPipeline(store, silentLogger),
    metrics: new IngestMetrics(),
    logger: silentLogger,
    settings: testIngestSettings(bootstrap, groupId, topics),
  });
  const check = await ingest.catchUpProbe()();
  ingest.run();
  try {
    const deadline = Date.now() + 20_000;
    while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return new Map(ingest.committedOffsets());
  } finally {
    await ingest.stop();
  }
}

/** A single clean `ingestFile` of the same events into a DuckDB file of its own (a new one each call: tests of one folder may ask for several). */
export async function referenceSnapshot(dir: string, lines: readonly string[]): Promise<Snapshot> {
  const name = `reference-${randomUUID()}`;
  const store = await Store.open(path.join(dir, `${name}.duckdb`), silentLogger);
  try {
    await ingestFile(buildPipeline(store, silentLogger), writeLines(dir, `${name}.ndjson`, lines), { batchRows: 1000 });
    return await snapshot(store);
  } finally {
    await store.close();
  }
}

const SNAPSHOT_SQL = {
  customers: 'SELECT customer_id, client_id, hosted, secret_hash IS NOT NULL AS has_secret FROM customers ORDER BY customer_id, client_id',
  accounts: 'SELECT * EXCLUDE (updated_at) FROM accounts ORDER BY customer_id, client_id, account_id',
  balances: 'SELECT * FROM balances ORDER BY customer_id, client_id, account_id, position',
  transactions: 'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY customer_id, client_id, transaction_id',
  tombstones: 'SELECT * FROM tombstones ORDER BY record_type, customer_id, client_id, record_id',
  applications: 'SELECT * EXCLUDE (updated_at) FROM customer_applications ORDER BY customer_id, client_id, application_id',
  monthlyTotals: 'SELECT * FROM monthly_category_totals ORDER BY ALL',
  handledEvents: 'SELECT event_id, type FROM handled_events ORDER BY event_id',
  deadLetters: 'SELECT raw, reason FROM dead_letters ORDER BY raw, reason',
} as const;

export type Snapshot = Record<keyof typeof SNAPSHOT_SQL, Record<string, unknown>[]>;

/** Every table that ingest writes, in a stable order, without the columns that record when a row was written. */
export async function snapshot(store: Store): Promise<Snapshot> {
  return store.read(async (conn) => {
    const out: Partial<Snapshot> = {};
    for (const [name, sql] of Object.entries(SNAPSHOT_SQL)) out[name as keyof Snapshot] = await queryRows(conn, sql);
    return out as Snapshot;
  });
}

export async function withStore<T>(file: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await Store.open(file, silentLogger);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/**
 * Sums per customer (client and customer id), month and direction, worked out from the event lines
 * alone: the latest version of each transaction wins, deletions remove,
 * declined ones do not count.
 */
export function expectedMonthlySums(lines: readonly string[]): Map<string, string> {
  const latest = new Map<string, { version: string; deleted: boolean; key?: string; amount?: string; declined?: boolean }>();
  for (const line of lines) {
    const parsed = parseEvent(line);
    if (!parsed.ok) continue;
    const e = parsed.event;
    if (e.type !== 'transaction.upserted' && e.type !== 'transaction.deleted') continue;
    const id = `${e.client_id}/${e.customer_id}/${e.data.transaction_id}`;
    const version = `${e.occurred_at}|${e.event_id}`;
    const seen = latest.get(id);
    if (seen && seen.version >= version) continue;
    if (e.type === 'transaction.deleted') latest.set(id, { version, deleted: true });
    else {
      const t = e.data;
      latest.set(id, { version, deleted: false, key: `${e.client_id}|${e.customer_id}|${t.date_time.slice(0, 7)}|${t.credit_debit_indicator}`, amount: t.amount.value, declined: t.status === 'declined' });
    }
  }
  const sums = new Map<string, Decimal>();
  for (const t of latest.values()) {
    if (t.deleted || t.declined || !t.key || !t.amount) continue;
    sums.set(t.key, (sums.get(t.key) ?? new Decimal(0)).plus(t.amount));
  }
  return new Map([...sums].map(([k, v]) => [k, v.toFixed(2)]));
}

export async function storedMonthlySums(store: Store): Promise<Map<string, string>> {
  const rows = await store.read((conn) =>
    rowsAs<{ k: string; total: string }>(
      conn,
      `SELECT client_id || '|' || customer_id || '|' || strftime(month, '%Y-%m') || '|' || direction AS k, sum(total)::DECIMAL(18,2)::VARCHAR AS total
       FROM monthly_category_totals GROUP BY ALL`,
    ),
  );
  return new Map(rows.map((r) => [r.k, r.total]));
}

function kafka(bootstrap: string): Kafka {
  return new Kafka({ clientId: 'afford-test', brokers: [bootstrap], logLevel: logLevel.NOTHING });
}

/** High watermark per `topic#partition`. */
export async function endOffsets(bootstrap: string, topics: readonly string[]): Promise<Map<string, bigint>> {
  const admin = kafka(bootstrap).admin();
  await admin.connect();
  try {
    const ends = new Map<string, bigint>();
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic)) ends.set(`${topic}#${p.partition}`, BigInt(p.high));
    }
    return ends;
  } finally {
    await admin.disconnect();
  }
}

/** The offsets a consumer group has committed to Kafka, per `topic#partition` (partitions it never committed left out). */
export async function groupOffsets(bootstrap: string, groupId: string, topics: readonly string[]): Promise<Map<string, bigint>> {
  const admin = kafka(bootstrap).admin();
  await admin.connect();
  try {
    const offsets = new Map<string, bigint>();
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics: [...topics] })) {
      for (const p of partitions) if (BigInt(p.offset) >= 0n) offsets.set(`${topic}#${p.partition}`, BigInt(p.offset));
    }
    return offsets;
  } finally {
    await admin.disconnect();
  }
}

export interface ReadMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

interface KcatRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  payload: string | null;
  headers?: string[];
}

/** Every message on one topic, read from the start to the end by kcat: another client than the one under test, and no group. */
function readTopic(bootstrap: string, topic: string): Promise<ReadMessage[]> {
  return new Promise((resolve, reject) => {
    const args = ['-C', '-b', bootstrap, '-t', topic, '-o', 'beginning', '-e', '-J', '-q', '-X', 'log_level=0'];
    execFile('kcat', args, { maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`kcat could not read ${topic} (install it with test/install-tools.sh): ${err.message}\n${stderr}`));
        return;
      }
      const messages = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => {
          const r = JSON.parse(l) as KcatRecord;
          const headers: Record<string, string> = {};
          for (let i = 0; i + 1 < (r.headers?.length ?? 0); i += 2) headers[r.headers?.[i] as string] = r.headers?.[i + 1] as string;
          return { topic: r.topic, partition: r.partition, offset: String(r.offset), key: r.key, value: r.payload ?? '', headers };
        });
      resolve(messages);
    });
  });
}

export async function readTopics(bootstrap: string, topics: readonly string[]): Promise<ReadMessage[]> {
  return (await Promise.all(topics.map((t) => readTopic(bootstrap, t)))).flat();
}
