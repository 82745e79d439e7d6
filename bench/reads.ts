/**
 * Reads against a bare Fastify server returning the same bytes, in one run.
 *
 *   node --import tsx bench/reads.ts [--customers 2000] [--per-month 52] [--sample 2000] [--seconds 10]
 *   node --import tsx bench/reads.ts --transactions 10000000      (16,026 customers: 10 M transactions)
 *
 * 1. Builds a store in SQL (bench/sql/reads-store.sql: customers, accounts and
 *    52 transactions a customer a month over 12 months, in the real schema),
 *    then fills monthly_category_totals with the real nightly job
 *    (`afford jobs run rebuild-monthly-totals`).
 * 2. Starts `afford serve` on it and reads each of the three answers for
 *    --sample customers: bucket totals grouped by bucket_l1,month over 12
 *    months, the first page of 100 transactions, and the affordability report
 *    as JSON. These first reads find nothing cached; the first --cold of them
 *    go one at a time, and their p50/p99 are the uncached figures. The bodies
 *    are kept.
 * 3. Starts a bare Fastify 5 server (bench/reads-bare-server.ts) that answers
 *    the same URLs with those bytes, by X-Customer-ID.
 * 4. Drives both with autocannon, a random sampled customer per request, at
 *    10 connections and at 1, and prints requests/s, p99, the baseline and
 *    the ratio; then the peak RSS of both servers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { statements } from '../src/db/script.js';
import { Store } from '../src/db/store.js';
import { createLogger } from '../src/logger.js';

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '2000' },
    transactions: { type: 'string' },
    'per-month': { type: 'string', default: '52' },
    sample: { type: 'string', default: '2000' },
    /** How many of the first reads go one at a time, for the uncached latencies; the rest go 4 at a time. */
    cold: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
    /** A folder a --keep run left: its store is read again (the monthly totals rebuilt), not built. */
    store: { type: 'string' },
    /** Writes a CPU profile of afford serve into this folder. */
    profile: { type: 'string' },
  },
});
const perMonth = Number(args['per-month']);
const customers = args.transactions ? Math.ceil(Number(args.transactions) / (perMonth * 12)) : Number(args.customers);
const sampleSize = Math.min(customers, Number(args.sample));
const seconds = Number(args.seconds);
const CLIENT = 'bench-client';
const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');
const dir = args.store ? path.resolve(args.store) : mkdtempSync(path.join(tmpdir(), 'afford-reads-'));
const dbPath = path.join(dir, 'afford.duckdb');
const env = { ...process.env, AFFORD_DB: dbPath, AFFORD_LOG_LEVEL: 'warn', AFFORD_EXPORT_DIR: path.join(dir, 'export'), AFFORD_PORT: '0' };
const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const fmt = (n: number, digits = 0): string => n.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const customerId = (i: number): string => `cust-${String(i).padStart(6, '0')}`;

const ENDPOINTS = [
  { name: 'bucket totals, group_by=bucket_l1,month, 12 months', url: '/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1,month&month_from=2025-01&month_to=2025-12' },
  { name: 'transactions, first page of 100', url: '/financial/v2/transactions?page_size=100' },
  { name: 'affordability report, JSON', url: '/v1/affordability/report?month_from=2025-01&month_to=2025-12' },
];

/** Fills the store in SQL, in one transaction, with the real migrations applied first. */
async function buildStore(): Promise<number> {
  const started = performance.now();
  const store = await Store.open(dbPath, createLogger('silent'), { memoryLimit: '1GB' });
  const params = { client_id: CLIENT, customers, per_month: perMonth };
  const sql = readFileSync(path.join(here, 'sql', 'reads-store.sql'), 'utf8');
  await store.write(async (conn) => {
    for (const s of statements(sql)) {
      const used = Object.fromEntries(Object.entries(params).filter(([name]) => new RegExp(`\\$${name}\\b`).test(s)));
      await conn.run(s, used);
    }
  });
  await store.close();
  return (performance.now() - started) / 1000;
}

/** Runs an afford command; `mayFail` when its exit status is a verdict rather than a failure. */
function afford(argv: string[], mayFail = false): string {
  const run = spawnSync(process.execPath, [path.join(root, 'bin', 'afford.mjs'), ...argv], { env, encoding: 'utf8' });
  if (run.status !== 0 && !(mayFail && run.status === 1)) throw new Error(`afford ${argv.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

/** Starts a server process and waits for `ready` to find its address in what it prints (or in its log). */
function startProcess(argv: string[], ready: (line: string) => string | undefined): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const address = ready(line);
      if (address) resolve({ child, address });
    });
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited with ${code}`)));
  });
}

/** A port free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `afford serve` as it runs in production (log level warn: no line per request), once /readyz answers. */
async function startServe(): Promise<{ child: ChildProcess; address: string }> {
  const port = await freePort();
  const profile = args.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(args.profile)] : [];
  const child = spawn(process.execPath, [...profile, path.join(root, 'bin', 'afford.mjs'), 'serve'], { env: { ...env, AFFORD_PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  const address = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`afford serve exited with ${child.exitCode}`);
    const ok = await fetch(`${address}/readyz`).then((r) => r.ok, () => false);
    if (ok) return { child, address };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The peak resident set of a live process (VmHWM), in MiB. */
function peakRssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function token(base: string, secret: string): Promise<string> {
  const res = await fetch(`${base}/v1/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT}:${secret}`).toString('base64')}`,
      'x-client-id': CLIENT,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await res.json()) as { data: { access_token: string } };
  return body.data.access_token;
}

interface Load {
  rps: number;
  p99: number;
  errors: number;
  /** CPU time the server spent per request (user + system), in microseconds: less noisy than req/s on a shared machine. */
  cpuMicros: number;
}

/** CPU seconds a process has used (utime + stime, at 100 ticks a second). */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function load(server: ChildProcess, base: string, url: string, headers: Record<string, string>, sample: readonly string[], connections: number): Promise<Load> {
  const cpuBefore = cpuSeconds(server.pid);
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path: url,
        headers,
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-customer-id': sample[Math.floor(Math.random() * sample.length)] ?? '' } }),
      },
    ],
  });
  const cpuMicros = ((cpuSeconds(server.pid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total);
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx + result.timeouts, cpuMicros };
}

async function main(): Promise<void> {
  say(`reads bench: ${fmt(customers)} customers x 12 months x ${perMonth} transactions = ${fmt(customers * 12 * perMonth)} transactions; ${fmt(sampleSize)} customers read; ${seconds} s a run; ${dir}`);
  if (!args.store) say(`  store built in SQL: ${(await buildStore()).toFixed(1)} s`);
  let started = performance.now();
  // The table starts empty, so the job finds every row missing ("drift"), fills it, and exits 1 saying so.
  const job = afford(['jobs', 'run', 'rebuild-monthly-totals'], true).trim().split('\n').at(-1);
  say(`  monthly totals by the real job: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Its own verdict follows, as it printed it: here its "failed ... drift" is the expected one, not a fault.
  say(`    the job's verdict (a "drift" failure is expected: the table started empty): ${job}`);
  const rotate = args.store ? ['--rotate'] : [];
  const secret = (JSON.parse(afford(['clients', 'create', '--name', 'bench', '--id', CLIENT, ...rotate, '--json'])) as { client_secret: string }).client_secret;

  const serve = await startServe();
  const headers = { authorization: `Bearer ${await token(serve.address, secret)}`, 'x-client-id': CLIENT };
  const sample = Array.from({ length: sampleSize }, (_, i) => customerId(1 + Math.floor((i * customers) / sampleSize)));

  // The first read of each answer: nothing cached, one request at a time. Its bytes are the baseline's.
  const bodies: Record<string, Record<string, string>> = {};
  const cold: string[] = [];
  started = performance.now();
  const coldCount = Math.min(sampleSize, Number(args.cold));
  for (const e of ENDPOINTS) {
    const times: number[] = [];
    const byCustomer: Record<string, string> = {};
    bodies[e.url] = byCustomer;
    const capture = async (c: string): Promise<number> => {
      const t = performance.now();
      const res = await fetch(`${serve.address}${e.url}`, { headers: { ...headers, 'x-customer-id': c } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${e.url} for ${c}: ${res.status} ${text}`);
      byCustomer[c] = text;
      return performance.now() - t;
    };
    for (const c of sample.slice(0, coldCount)) times.push(await capture(c));
    const rest = sample.slice(coldCount);
    await Promise.all([0, 1, 2, 3].map(async (lane) => {
      for (let i = lane; i < rest.length; i += 4) await capture(rest[i] ?? '');
    }));
    times.sort((a, b) => a - b);
    const size = Object.values(byCustomer).reduce((n, b) => n + b.length, 0) / sample.length;
    cold.push(`  ${e.name}: first read p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (${fmt(size)} bytes)`);
  }
  say(`first reads of ${coldCount} customers, 1 connection, nothing cached (all ${fmt(sampleSize)} read in ${((performance.now() - started) / 1000).toFixed(1)} s):`);
  for (const line of cold) say(line);
  const bodiesFile = path.join(dir, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const bare = await startProcess([path.join(here, 'reads-bare-server.ts'), bodiesFile].flatMap((a, i) => (i === 0 ? ['--import', 'tsx', a] : [a])), (line) =>
    line.startsWith('http') ? line.trim() : undefined,
  );

  say('| endpoint | connections | afford req/s | p99 ms | bare Fastify req/s | p99 ms | ratio | server CPU per request, afford / bare |');
  say('|---|---|---|---|---|---|---|---|');
  for (const connections of [10, 1]) {
    for (const e of ENDPOINTS) {
      const ours = await load(serve.child, serve.address, e.url, headers, sample, connections);
      const base = await load(bare.child, bare.address, e.url, {}, sample, connections);
      const errors = ours.errors + base.errors ? ` (errors: afford ${ours.errors}, bare ${base.errors})` : '';
      say(`| ${e.name} | ${connections} | ${fmt(ours.rps)} | ${ours.p99} | ${fmt(base.rps)} | ${base.p99} | ${(ours.rps / base.rps).toFixed(3)} | ${fmt(ours.cpuMicros)} µs / ${fmt(base.cpuMicros)} µs |${errors}`);
    }
  }
  say(`peak RSS: afford serve ${fmt(peakRssMiB(serve.child.pid))} MiB, bare Fastify ${fmt(peakRssMiB(bare.child.pid))} MiB`);
  serve.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  await Promise.all([serve.child, bare.child].map((c) => new Promise((r) => c.once('exit', r))));
  if (!args.keep && !args.store) rmSync(dir, { recursive: true, force: true });
}

await main();
