import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { queryRows } from '../../src/db/rows.js';
import { generateEvents } from '../../src/generate/index.js';
import { silentLogger } from '../helpers/store.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'afford-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runIngest(db: string, file: string, killAfterBatches?: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/afford.mjs'), 'ingest', 'file', file, '--batch', '200'], {
      env: { ...process.env, AFFORD_DB: db, AFFORD_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let batches = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      batches += d.toString().split('batch committed').length - 1;
      if (killAfterBatches !== undefined && batches >= killAfterBatches) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

async function snapshot(db: string): Promise<unknown[]> {
  const store = await Store.open(db, silentLogger);
  try {
    return await store.read(async (conn) => [
      await queryRows(conn, 'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY customer_id, transaction_id'),
      await queryRows(conn, 'SELECT * FROM monthly_category_totals ORDER BY ALL'),
      await queryRows(conn, 'SELECT customer_id, client_id, hosted FROM customers ORDER BY customer_id'),
      await queryRows(conn, 'SELECT line_number, reason FROM dead_letters ORDER BY line_number'),
    ]);
  } finally {
    await store.close();
  }
}

describe('afford ingest file, killed part-way and run again', () => {
  it('ends with the same tables as one clean run', async () => {
    const file = path.join(dir, 'events.ndjson');
    writeFileSync(file, `${[...generateEvents({ customers: 12, months: 4, seed: 5, faults: true, endMonth: '2024-04' })].join('\n')}\n`);

    const clean = path.join(dir, 'clean.duckdb');
    const first = await runIngest(clean, file);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^read \d+, inserted \d+, updated \d+, deleted \d+, unchanged \d+, dead letters \d+/);

    const crashed = path.join(dir, 'crashed.duckdb');
    const killed = await runIngest(crashed, file, 3);
    expect(killed.code).toBeNull(); // died by the signal, before its summary
    const killedAgain = await runIngest(crashed, file, 2);
    expect(killedAgain.code).toBeNull();
    const finished = await runIngest(crashed, file);
    expect(finished.code).toBe(0);

    expect(await snapshot(crashed)).toEqual(await snapshot(clean));
  });
});
