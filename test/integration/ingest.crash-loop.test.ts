import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/rows.js';
import { Store } from '../../src/db/store.js';
import { generateEvents } from '../../src/generate/index.js';
import { Rng } from '../../src/generate/prng.js';
import { HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'afford-crash-loop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KILLS = 20;
const BATCH = 100;
/** Columns that record when a row was written, or draw from a sequence that a killed transaction may have used: they differ between runs by nature. */
const WRITE_TIME_COLUMNS = new Set(['updated_at', 'created_at', 'handled_at', 'applied_at', 'dead_letter_id']);
/** Salted hashes: a fresh salt each time, so only their presence is compared. */
const SALTED_COLUMNS = new Set(['secret_hash']);

interface Kill {
  /** Batches committed before the kill is armed (0: during start-up). */
  afterBatches: number;
  /** Then this many milliseconds, so that the signal lands anywhere in the next batch. */
  delayMs: number;
}

/** Runs `afford ingest file`; with a kill, SIGKILLs it at that moment. */
function runIngest(db: string, file: string, kill?: Kill): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/afford.mjs'), 'ingest', 'file', file, '--batch', String(BATCH)], {
      env: { ...process.env, AFFORD_DB: db, AFFORD_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let batches = 0;
    let armed = false;
    const arm = () => {
      if (armed || !kill) return;
      armed = true;
      setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
    };
    if (kill?.afterBatches === 0) arm();
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      batches += d.toString().split('batch committed').length - 1;
      if (kill && batches >= kill.afterBatches) arm();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout }));
  });
}

/** Every table in the file, every row, in a stable order, without the write-time columns. */
async function everyTable(db: string): Promise<Record<string, unknown[]>> {
  const store = await Store.open(db, silentLogger);
  try {
    return await store.read(async (conn) => {
      const columns = await rowsAs<{ table_name: string; column_name: string }>(
        conn,
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_catalog = current_database() AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema = 'main') ORDER BY table_name, ordinal_position",
      );
      const byTable = new Map<string, string[]>();
      for (const c of columns) {
        if (WRITE_TIME_COLUMNS.has(c.column_name)) continue;
        const column = SALTED_COLUMNS.has(c.column_name) ? `("${c.column_name}" IS NOT NULL) AS "${c.column_name}"` : `"${c.column_name}"`;
        byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), column]);
      }
      const out: Record<string, unknown[]> = {};
      for (const [table, cols] of byTable) out[table] = await queryRows(conn, `SELECT ${cols.join(', ')} FROM "${table}" ORDER BY ALL`);
      return out;
    });
  } finally {
    await store.close();
  }
}

describe('afford ingest file, SIGKILLed at random moments again and again', () => {
  it(`ends, after ${KILLS} kills and a last run, with every table as one clean run leaves it`, async () => {
    const generated = [...generateEvents({ customers: 5, months: 3, seed: 5, faults: true, endMonth: '2024-04' })].map((l) => Buffer.from(l));
    // Hostile lines in the middle too, so that dead letters are written (once) under the kills as well.
    const hostile = HOSTILE_LINES.filter((l) => l.bytes.length < 1024 * 1024).map((l) => l.bytes);
    const half = Math.floor(generated.length / 2);
    const lines = [...generated.slice(0, half), ...hostile, ...generated.slice(half)];
    const file = path.join(dir, 'events.ndjson');
    writeFileSync(file, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    const batches = Math.ceil(lines.length / BATCH);

    const clean = path.join(dir, 'clean.duckdb');
    const first = await runIngest(clean, file);
    expect(first.code).toBe(0);

    const crashed = path.join(dir, 'crashed.duckdb');
    const rng = new Rng(20240501);
    let kills = 0;
    for (let attempt = 0; kills < KILLS && attempt < KILLS * 3; attempt++) {
      const kill = { afterBatches: rng.int(0, batches - 1), delayMs: rng.int(0, 40) };
      const run = await runIngest(crashed, file, kill);
      // A kill armed late can miss a run that was about to finish; only the runs that died count.
      if (run.signal === 'SIGKILL') kills++;
      else expect(run.code).toBe(0);
    }
    expect(kills).toBe(KILLS);
    const last = await runIngest(crashed, file);
    expect(last.code).toBe(0);

    const [got, want] = [await everyTable(crashed), await everyTable(clean)];
    expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
    expect((want['transactions'] ?? []).length).toBeGreaterThan(300);
    expect((want['dead_letters'] ?? []).length).toBeGreaterThan(HOSTILE_LINES.length / 2);
    for (const table of Object.keys(want)) expect(got[table], table).toEqual(want[table]);
  }, 150_000);
});
