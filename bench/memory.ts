/**
 * Peak memory of afford against the size of its store. For each size, one
 * generated file (with faults) and, each in its own process under
 * /usr/bin/time:
 *   - baseline: DuckDB alone loading the same file (read_ndjson into typed
 *     columns, the latest version of each transaction, the monthly totals)
 *     under the same memory_limit afford runs with, on one thread as afford
 *     runs DuckDB, and without keeping insertion order (without both it runs
 *     out of memory at 128MB);
 *   - `afford ingest file -` reading the file on standard input, into a
 *     fresh store;
 *   - `afford jobs run all` on the store that ingest left.
 * The data ends with the last month, as `afford generate` makes it, so the
 * nightly reports have figures to compute. Peak RSS does not depend on the machine's load, so the figures are fair on
 * a shared machine; the ratio to the baseline shows what afford adds to the
 * engine. Memory should not grow from one size to the next.
 *
 * Usage: node --import tsx bench/memory.ts [--customers 200,400] [--months 12] [--order customer|time] [--afford PATH]
 *   `--order time` sorts each file by occurred_at, so that every batch holds
 *   nearly every customer's events, as a Kafka stream's transactions do;
 *   `--customers 2000,4000` is the full size (about 1.26 M and 2.5 M events);
 *   `--afford` measures another checkout's bin/afford.mjs (a version before)
 *   on the same data, run beside this one for a comparison at the same load.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { sortFileByTime } from './sort-by-time.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.join(here, '..');

/** What DuckDB alone does with the file: the load and the monthly totals, nothing of afford's bookkeeping. */
const DUCKDB_ALONE = [
  `CREATE TABLE tx AS
SELECT event_id, type, occurred_at::TIMESTAMP AS occurred_at, client_id, customer_id,
       data.transaction_id AS transaction_id, data.account_id AS account_id,
       data.credit_debit_indicator AS direction, data.amount.value::DECIMAL(18,2) AS amount,
       data.amount.currency AS amount_currency, data.date_time::TIMESTAMP AS date_time, data.status AS status,
       data.enrichments.categories.l1.slug AS category_l1, data.enrichments.categories.l2.slug AS category_l2
FROM read_ndjson(?, ignore_errors = true, maximum_object_size = 1048576,
  columns = {event_id: 'VARCHAR', type: 'VARCHAR', occurred_at: 'VARCHAR', client_id: 'VARCHAR', customer_id: 'VARCHAR',
             data: 'STRUCT(transaction_id VARCHAR, account_id VARCHAR, credit_debit_indicator VARCHAR,
                    amount STRUCT(value VARCHAR, currency VARCHAR), date_time VARCHAR, status VARCHAR,
                    enrichments STRUCT(categories STRUCT(l1 STRUCT(slug VARCHAR), l2 STRUCT(slug VARCHAR))))'})
WHERE type IN ('transaction.upserted', 'transaction.deleted')
QUALIFY row_number() OVER (PARTITION BY client_id, customer_id, transaction_id ORDER BY occurred_at DESC, event_id DESC) = 1`,
  `CREATE TABLE totals AS
SELECT client_id, customer_id, account_id, date_trunc('month', date_time)::DATE AS month, amount_currency,
       category_l1, category_l2, direction, sum(amount)::DECIMAL(18,2) AS total, count(*)::INTEGER AS n
FROM tx WHERE type = 'transaction.upserted' AND status <> 'declined' GROUP BY ALL`,
];

/** One size's peaks, MiB. */
interface Sized {
  events: number;
  alone: number;
  ingest: number;
  jobs: number;
  line: string;
}

interface Run {
  seconds: number;
  /** User plus system CPU seconds, as /usr/bin/time counts them. */
  cpu: number;
  peakMiB: number;
  stdout: string;
}

/** Runs a command under /usr/bin/time -v, optionally with a file on its standard input. */
function measured(args: string[], env: Record<string, string>, stdinFile?: string): Run {
  const stdin = stdinFile ? openSync(stdinFile, 'r') : 'ignore';
  const started = process.hrtime.bigint();
  try {
    const r = spawnSync('/usr/bin/time', ['-v', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: [stdin, 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr.slice(-4000)}`);
    const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? NaN);
    const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN) + Number(/System time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN);
    return { seconds, cpu, peakMiB: kb / 1024, stdout: r.stdout };
  } finally {
    if (typeof stdin === 'number') closeSync(stdin);
  }
}

async function duckdbAlone(file: string, db: string, memoryLimit: string): Promise<void> {
  // On one thread, as afford runs DuckDB, and without insertion order kept, as DuckDB itself advises when a load does not fit: at 128MB it runs out of memory otherwise.
  const instance = await DuckDBInstance.create(db, { memory_limit: memoryLimit, preserve_insertion_order: 'false', threads: '1' });
  const conn = await instance.connect();
  const [load, totals] = DUCKDB_ALONE as [string, string];
  await conn.run(load, [file]);
  await conn.run(totals);
  conn.closeSync();
  instance.closeSync();
}

async function generate(file: string, customers: number, months: number): Promise<number> {
  const { writeEventsFile } = await import('../src/generate/index.js');
  const stats = await writeEventsFile({ customers, months, seed: 7, faults: true }, file);
  return stats.lines;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-GB');
const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      customers: { type: 'string', default: '200,400' },
      months: { type: 'string', default: '12' },
      order: { type: 'string', default: 'customer' },
      afford: { type: 'string' },
    },
  });
  const order = String(values.order);
  if (order !== 'customer' && order !== 'time') throw new Error(`--order is customer or time, not ${order}`);
  // --afford: another checkout's bin/afford.mjs, to measure the version before against the same data and load.
  const afford = path.resolve(values.afford ?? path.join(root, 'bin', 'afford.mjs'));
  const sizes = String(values.customers).split(',').map(Number).filter((n) => n > 0);
  const months = Number(values.months);
  const { loadConfig } = await import('../src/config.js');
  const memoryLimit = loadConfig().AFFORD_DB_MEMORY_LIMIT;
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-memory-'));
  const self = [process.execPath, '--import', 'tsx', path.join(here, 'memory.ts')];
  const rows: Sized[] = [];
  try {
    say(`memory: peak RSS of each step in its own process (/usr/bin/time), events in ${order} order, ${afford}, AFFORD_DB_MEMORY_LIMIT=${memoryLimit}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const customers of sizes) {
      const file = path.join(dir, `events-${customers}.ndjson`);
      const lines = await generate(file, customers, months);
      if (order === 'time') sortFileByTime(file);
      const alone = measured([...self, '--child', file, path.join(dir, `alone-${customers}.duckdb`), memoryLimit], {});
      rmSync(path.join(dir, `alone-${customers}.duckdb`), { force: true });
      const env = { AFFORD_DB: path.join(dir, `afford-${customers}.duckdb`), AFFORD_EXPORT_DIR: path.join(dir, `export-${customers}`), AFFORD_LOG_LEVEL: 'warn' };
      const ingest = measured([process.execPath, afford, 'ingest', 'file', '-'], env, file);
      const events = Number(/read (\d+)/.exec(ingest.stdout)?.[1] ?? lines);
      const jobs = measured([process.execPath, afford, 'jobs', 'run', 'all'], env);
      rmSync(file, { force: true });
      say(`${customers} customers x ${months} months, ${fmt(events)} events (load average now ${loadavg()[0]?.toFixed(2)}):`);
      say(`  duckdb alone, same load     peak RSS ${fmt(alone.peakMiB)} MiB (${alone.seconds.toFixed(1)} s, ${alone.cpu.toFixed(1)} CPU-s)`);
      say(`  afford ingest file -        peak RSS ${fmt(ingest.peakMiB)} MiB (${ingest.seconds.toFixed(1)} s, ${ingest.cpu.toFixed(1)} CPU-s), ratio to duckdb alone ${(ingest.peakMiB / alone.peakMiB).toFixed(2)}`);
      say(`  afford jobs run all         peak RSS ${fmt(jobs.peakMiB)} MiB (${jobs.seconds.toFixed(1)} s, ${jobs.cpu.toFixed(1)} CPU-s), ratio to duckdb alone ${(jobs.peakMiB / alone.peakMiB).toFixed(2)}`);
      rows.push({ events, alone: alone.peakMiB, ingest: ingest.peakMiB, jobs: jobs.peakMiB, line: `| ${fmt(customers)} | ${fmt(events)} | ${fmt(alone.peakMiB)} | ${fmt(ingest.peakMiB)} | ${fmt(jobs.peakMiB)} |` });
    }
    say('\n| customers | events | duckdb alone MiB | ingest MiB | jobs run all MiB |\n|---|---|---|---|---|');
    for (const r of rows) say(r.line);
    const [small, large] = [rows[0], rows.at(-1)];
    if (small && large && large !== small) {
      // Flat memory: the largest size's peaks over the smallest's, beside DuckDB alone's own growth on the same files.
      const grow = (f: (r: Sized) => number): string => (f(large) / f(small)).toFixed(2);
      say(`\npeak RSS at ${fmt(large.events)} events over ${fmt(small.events)}: duckdb alone ${grow((r) => r.alone)}, ingest ${grow((r) => r.ingest)}, jobs run all ${grow((r) => r.jobs)} (1.00 is flat)`);
      say(`largest peak: ingest ${fmt(Math.max(...rows.map((r) => r.ingest)))} MiB, jobs run all ${fmt(Math.max(...rows.map((r) => r.jobs)))} MiB (limit 512 MiB)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const child = process.argv.indexOf('--child');
if (child >= 0) {
  const [file, db, limit] = process.argv.slice(child + 1) as [string, string, string];
  await duckdbAlone(file, db, limit);
} else {
  await main();
}
