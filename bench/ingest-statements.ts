/**
 * Where a file ingest's time goes, statement by statement: the generated
 * file ingested into a fresh store in this process, as `afford ingest file`
 * does, with every call the writer makes to DuckDB timed from the moment
 * JavaScript sends it to the moment JavaScript has its answer (so a
 * statement whose answer waits for a busy main thread counts that wait).
 * Statements are named by the SQL file they come from (`queries/ingest/
 * fast-rows.sql#1` is its first statement); those built in code are shown
 * by their first words. What is left of the ingest's time is the writer's
 * JavaScript between statements.
 *
 * A diagnostic, not a ratio: the figures move with the machine, and are for
 * comparing two versions of the code in turn on the same machine.
 *
 *   node --import tsx bench/ingest-statements.ts [--customers 500] [--months 12] [--file events.ndjson] [--top 30]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { statements } from '../src/db/script.js';
import { SQL_DIR } from '../src/db/sql-files.js';

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '500' },
    months: { type: 'string', default: '12' },
    file: { type: 'string' },
    top: { type: 'string', default: '30' },
  },
});

/** Every statement of every SQL file, by its text as the scripts send it. */
function statementNames(): Map<string, string> {
  const names = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(path.join(SQL_DIR, folder), { withFileTypes: true })) {
      const name = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (name.endsWith('.sql')) statements(readFileSync(path.join(SQL_DIR, name), 'utf8')).forEach((s, i) => names.set(s, `${name}#${i + 1}`));
    }
  };
  walk('queries');
  return names;
}

const names = statementNames();
// A one-statement file is sent whole, comments and all (queryFile); a script's statements one by one (runScript).
const nameOf = (sql: string): string => names.get(sql.trim()) ?? names.get(statements(sql)[0] ?? '') ?? sql.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ').trim().slice(0, 70);
const timings = new Map<string, { calls: number; ms: number }>();
let recording = false;
const record = (name: string, ms: number): void => {
  if (!recording) return;
  const t = timings.get(name) ?? { calls: 0, ms: 0 };
  t.calls += 1;
  t.ms += ms;
  timings.set(name, t);
};

type Method = (this: unknown, ...a: unknown[]) => unknown;
const prototypeOf = (o: object): Record<string, Method> => o as unknown as Record<string, Method>;
// Every way the code sends SQL goes through one of these three.
for (const method of ['run', 'stream', 'start']) {
  const proto = prototypeOf(DuckDBConnection.prototype);
  const original = proto[method] as Method;
  proto[method] = async function (this: unknown, ...a: unknown[]) {
    const started = performance.now();
    try {
      return await original.apply(this, a);
    } finally {
      // The time first: naming the statement (splitting a file's text) is the bench's own work, not DuckDB's.
      const ms = performance.now() - started;
      record(nameOf(String(a[0])), ms);
    }
  };
}
// Appending runs on the calling thread: its flushes and closes are timed too.
for (const method of ['flushSync', 'closeSync']) {
  const proto = prototypeOf(DuckDBAppender.prototype);
  const original = proto[method] as Method;
  proto[method] = function (this: unknown, ...a: unknown[]) {
    const started = performance.now();
    try {
      return original.apply(this, a);
    } finally {
      record(`(appender ${method.replace('Sync', '')})`, performance.now() - started);
    }
  };
}

const { Store } = await import('../src/db/store.js');
const { buildPipeline } = await import('../src/app/pipeline.js');
const { ingestFile } = await import('../src/ingest/file-source.js');
const { createLogger } = await import('../src/logger.js');
const { loadConfig, storeOptions } = await import('../src/config.js');
const { writeEventsFile } = await import('../src/generate/index.js');

const dir = mkdtempSync(path.join(tmpdir(), 'afford-bench-statements-'));
try {
  let file = args.file;
  if (file === undefined) {
    file = path.join(dir, 'events.ndjson');
    await writeEventsFile({ customers: Number(args.customers), months: Number(args.months), seed: 7, faults: true, endMonth: '2024-12' }, file);
  }
  const config = loadConfig();
  const logger = createLogger('silent');
  const store = await Store.open(path.join(dir, 'afford.duckdb'), logger, storeOptions(config));
  recording = true;
  const started = performance.now();
  const batches: number[] = [];
  await ingestFile(buildPipeline(store, logger), file, { batchRows: config.AFFORD_INGEST_BATCH_ROWS, onProgress: (s) => batches.push(s.read) });
  const ingestMs = performance.now() - started;
  await store.close();
  recording = false;

  const rows = [...timings].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((n, [, t]) => n + t.ms, 0);
  const lines = batches.at(-1) ?? 0;
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  out(`${lines.toLocaleString('en-GB')} lines (${(statSync(file).size / 1e6).toFixed(0)} MB) in ${batches.length} batches: ingest ${Math.round(ingestMs)} ms, ${Math.round(total)} ms of it in DuckDB calls, ${Math.round(ingestMs - total)} ms between them (load average ${loadavg().map((l) => l.toFixed(2)).join(', ')})`);
  out('      ms  share  calls  ms/call  statement');
  for (const [name, t] of rows.slice(0, Number(args.top))) {
    out(`${Math.round(t.ms).toString().padStart(8)}  ${((100 * t.ms) / ingestMs).toFixed(1).padStart(4)}%  ${String(t.calls).padStart(5)}  ${(t.ms / t.calls).toFixed(1).padStart(7)}  ${name}`);
  }
  const rest = rows.slice(Number(args.top));
  if (rest.length > 0) out(`${Math.round(rest.reduce((n, [, t]) => n + t.ms, 0)).toString().padStart(8)}         ${String(rest.reduce((n, [, t]) => n + t.calls, 0)).padStart(5)}           ${rest.length} more statements`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
