/**
 * File ingest against DuckDB doing the same job alone, on the same generated
 * file in the same run, because these machines are noisy:
 *   - duckdb alone: `read_ndjson` into typed columns, keep the latest version
 *     of each transaction, build the monthly totals (no dead letters, no
 *     tombstones, not incremental: the floor an ingest could reach);
 *   - afford: `afford ingest file` into a fresh DuckDB file.
 * Each runs in its own process under /usr/bin/time, for its peak RSS.
 * Then the growth run: one larger ingest (in a child doing what the CLI
 * does), whose last tenth of lines is timed against its first tenth, and
 * `afford jobs run all` on the store it leaves.
 *
 * Usage: node --import tsx bench/ingest-file.ts [--customers 500] [--months 12]
 *          [--rounds 1] [--growth-customers 200] (0 skips the growth run)
 *          [--growth-order customer|time]
 * The generator writes each customer's events together; `--growth-order time`
 * sorts the growth file by `occurred_at` first, so that every batch holds
 * events of nearly every customer, as a Kafka stream's do.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sortFileByTime } from './sort-by-time.js';
import { DuckDBInstance } from '@duckdb/node-api';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.join(here, '..');
const afford = path.join(root, 'bin', 'afford.mjs');

/** The whole job, done by DuckDB alone: it reads the file itself and writes two tables. */
const DUCKDB_ALONE = `
CREATE TABLE tx AS
SELECT event_id, type, occurred_at::TIMESTAMP AS occurred_at, client_id, customer_id,
       data.transaction_id AS transaction_id, data.account_id AS account_id, data.currency AS currency,
       data.credit_debit_indicator AS direction, data.amount.value::DECIMAL(18,2) AS amount,
       data.amount.currency AS amount_currency, data.date_time::TIMESTAMP AS date_time, data.status AS status,
       data.enrichments.categories.l1.slug AS category_l1, data.enrichments.categories.l2.slug AS category_l2
FROM read_ndjson(?, ignore_errors = true, maximum_object_size = 1048576,
  columns = {event_id: 'VARCHAR', type: 'VARCHAR', occurred_at: 'VARCHAR', client_id: 'VARCHAR', customer_id: 'VARCHAR',
             data: 'STRUCT(transaction_id VARCHAR, account_id VARCHAR, currency VARCHAR, credit_debit_indicator VARCHAR,
                    amount STRUCT(value VARCHAR, currency VARCHAR), date_time VARCHAR, status VARCHAR,
                    enrichments STRUCT(categories STRUCT(l1 STRUCT(slug VARCHAR), l2 STRUCT(slug VARCHAR))))'})
WHERE type IN ('transaction.upserted', 'transaction.deleted')
QUALIFY row_number() OVER (PARTITION BY client_id, customer_id, transaction_id ORDER BY occurred_at DESC, event_id DESC) = 1;
CREATE TABLE totals AS
SELECT client_id, customer_id, account_id, date_trunc('month', date_time)::DATE AS month, amount_currency,
       category_l1, category_l2, direction, sum(amount)::DECIMAL(18,2) AS total, count(*)::INTEGER AS n
FROM tx WHERE type = 'transaction.upserted' AND status <> 'declined' GROUP BY ALL`;

interface Run {
  seconds: number;
  /** User and system CPU seconds of the process: what it costs whatever else the machine runs. */
  cpuSeconds: number;
  maxRssMiB: number;
  stdout: string;
}

/** Runs a command under /usr/bin/time -v: wall time and the peak RSS of the process. */
function measured(args: string[], env: Record<string, string> = {}): Run {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-v', ...args], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const cpu = (what: string): number => Number(new RegExp(`${what} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? NaN);
  return { seconds, cpuSeconds: cpu('User') + cpu('System'), maxRssMiB: kb / 1024, stdout: r.stdout };
}

async function duckdbAlone(file: string, db: string): Promise<void> {
  const instance = await DuckDBInstance.create(db);
  const conn = await instance.connect();
  const [load, totals] = DUCKDB_ALONE.split(';');
  await conn.run(load as string, [file]);
  await conn.run(totals as string);
  conn.closeSync();
  instance.closeSync();
}

/** The growth child: what `afford ingest file` does, with the time at which each batch committed. */
async function growthChild(file: string, db: string): Promise<void> {
  const { Store } = await import('../src/db/store.js');
  const { buildPipeline } = await import('../src/app/pipeline.js');
  const { ingestFile } = await import('../src/ingest/file-source.js');
  const { createLogger } = await import('../src/logger.js');
  const { loadConfig, storeOptions } = await import('../src/config.js');
  const config = loadConfig();
  const logger = createLogger('silent');
  const store = await Store.open(db, logger, storeOptions(config));
  // [seconds, lines read, RSS MiB] at each committed batch.
  const marks: [number, number, number][] = [];
  const started = process.hrtime.bigint();
  const at = () => Number(process.hrtime.bigint() - started) / 1e9;
  await ingestFile(buildPipeline(store, logger), file, {
    batchRows: config.AFFORD_INGEST_BATCH_ROWS,
    onProgress: (s) => marks.push([at(), s.read, process.memoryUsage.rss() / 2 ** 20]),
  });
  await store.close();
  process.stdout.write(JSON.stringify(marks));
}

/** Seconds the ingest took over the lines in [from, to), by interpolating its commit marks. */
function secondsOver(marks: [number, number, number][], from: number, to: number): number {
  const timeAt = (n: number): number => {
    let prev: [number, number, number] = [0, 0, 0];
    for (const m of marks) {
      if (m[1] >= n) return prev[0] + ((m[0] - prev[0]) * (n - prev[1])) / Math.max(1, m[1] - prev[1]);
      prev = m;
    }
    return prev[0];
  };
  return timeAt(to) - timeAt(from);
}

async function generate(file: string, customers: number, months: number): Promise<number> {
  const { writeEventsFile } = await import('../src/generate/index.js');
  const stats = await writeEventsFile({ customers, months, seed: 7, faults: true, endMonth: '2024-12' }, file);
  return stats.lines;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-GB');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const say = (line: string): void => void process.stdout.write(`${line}\n`);
/** The machine's load, printed beside the figures: on a shared machine they mean little without it. */
const load = (): string => `load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      customers: { type: 'string', default: '500' },
      months: { type: 'string', default: '12' },
      rounds: { type: 'string', default: '1' },
      'growth-customers': { type: 'string', default: '200' },
      'growth-order': { type: 'string', default: 'customer' },
    },
  });
  const customers = Number(values.customers);
  const months = Number(values.months);
  const rounds = Number(values.rounds);
  const growthCustomers = Number(values['growth-customers']);
  const growthOrder = values['growth-order'];
  if (growthOrder !== 'customer' && growthOrder !== 'time') throw new Error(`--growth-order is customer or time, not ${growthOrder}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-bench-'));
  const tsx = [process.execPath, '--import', 'tsx', path.join(here, 'ingest-file.ts')];
  try {
    const file = path.join(dir, 'events.ndjson');
    const lines = await generate(file, customers, months);
    say(`file ingest, ${customers} customers x ${months} months: ${fmt(lines)} lines, ${(statSync(file).size / 1e6).toFixed(0)} MB (${load()})`);
    const alone: Run[] = [];
    const ours: Run[] = [];
    for (let round = 0; round < rounds; round++) {
      // Interleaved, so that both see the same machine.
      alone.push(measured([...tsx, '--child', 'duckdb-alone', file, path.join(dir, `alone-${round}.duckdb`)]));
      ours.push(measured([process.execPath, afford, 'ingest', 'file', file], { AFFORD_DB: path.join(dir, `afford-${round}.duckdb`) }));
    }
    const a = median(alone.map((r) => r.seconds));
    const o = median(ours.map((r) => r.seconds));
    const ac = median(alone.map((r) => r.cpuSeconds));
    const oc = median(ours.map((r) => r.cpuSeconds));
    say(`  duckdb alone, whole job   ${a.toFixed(2)} s  ${fmt(lines / a)} events/s, ${ac.toFixed(2)} CPU s, peak RSS ${fmt(median(alone.map((r) => r.maxRssMiB)))} MiB`);
    say(`  afford ingest file        ${o.toFixed(2)} s  ${fmt(lines / o)} events/s, ${oc.toFixed(2)} CPU s, peak RSS ${fmt(median(ours.map((r) => r.maxRssMiB)))} MiB`);
    say(`  ratio afford / duckdb alone: ${(a / o).toFixed(3)} (medians of ${rounds} interleaved rounds; 1.0 is as fast as DuckDB alone)`);
    say(`  ratio of CPU seconds, duckdb alone / afford: ${(ac / oc).toFixed(3)} (less sensitive to a loaded machine than the wall-clock ratio)`);
    if (rounds > 1) say(`  ratio per round: ${alone.map((r, i) => (r.seconds / (ours[i] as Run).seconds).toFixed(3)).join(', ')}`);
    say(`  ${load()}`);
    say(`  afford said: ${ours[0]?.stdout.trim().replace(/\n/g, ' ')}`);

    if (growthCustomers > 0) {
      const big = path.join(dir, 'growth.ndjson');
      const n = await generate(big, growthCustomers, 12);
      if (growthOrder === 'time') sortFileByTime(big);
      const db = path.join(dir, 'growth.duckdb');
      const run = measured([...tsx, '--child', 'growth', big, db]);
      const marks = JSON.parse(run.stdout) as [number, number, number][];
      const first = secondsOver(marks, 0, n / 10);
      const last = secondsOver(marks, n - n / 10, n);
      // RSS at the commits of each tenth: memory that grew with the store would show here.
      const rssOver = (from: number, to: number): number => Math.max(0, ...marks.filter((m) => m[1] > from && m[1] <= to).map((m) => m[2]));
      say(`growth, ${growthCustomers} customers x 12 months, in ${growthOrder} order: ${fmt(n)} lines in ${run.seconds.toFixed(1)} s, peak RSS ${fmt(run.maxRssMiB)} MiB (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
      say(`  first tenth ${fmt(n / 10 / first)} events/s, last tenth ${fmt(n / 10 / last)} events/s, ratio last / first: ${(first / last).toFixed(3)}`);
      say(`  RSS at the commits of the first tenth up to ${fmt(rssOver(0, n / 10))} MiB, of the last tenth up to ${fmt(rssOver(n - n / 10, n))} MiB`);
      const jobs = measured([process.execPath, afford, 'jobs', 'run', 'all'], { AFFORD_DB: db, AFFORD_EXPORT_DIR: path.join(dir, 'export') });
      say(`  afford jobs run all on it: ${jobs.seconds.toFixed(1)} s, peak RSS ${fmt(jobs.maxRssMiB)} MiB`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const child = process.argv.indexOf('--child');
if (child >= 0) {
  const [mode, file, db] = process.argv.slice(child + 1) as [string, string, string];
  await (mode === 'duckdb-alone' ? duckdbAlone(file, db) : growthChild(file, db));
} else {
  await main();
}
