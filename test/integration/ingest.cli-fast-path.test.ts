import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { queryRows } from '../../src/db/rows.js';
import { generateEvents } from '../../src/generate/index.js';
import { afford } from '../helpers/cli.js';
import { silentLogger } from '../helpers/store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-cli-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tables(db: string): Promise<unknown[]> {
  const store = await Store.open(db, silentLogger);
  try {
    return await store.read(async (conn) => [
      await queryRows(conn, 'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY ALL'),
      await queryRows(conn, 'SELECT * FROM monthly_category_totals ORDER BY ALL'),
      await queryRows(conn, 'SELECT line_number, reason FROM dead_letters ORDER BY ALL'),
      await queryRows(conn, 'SELECT * FROM tombstones ORDER BY ALL'),
    ]);
  } finally {
    await store.close();
  }
}

describe('afford ingest file in batches large enough for the fast path', () => {
  it('ends on its own once the file is in, with the very tables that batches validated by the schema alone give', { timeout: 120_000 }, async () => {
    const file = path.join(dir, 'events.ndjson');
    const lines = [...generateEvents({ customers: 6, months: 12, seed: 31, faults: true, endMonth: '2024-12' })].map((l) => l.trimEnd());
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(lines.length).toBeGreaterThan(4000);
    const run = (db: string, batch: string) => afford(['ingest', 'file', file, '--batch', batch], { ...process.env, AFFORD_DB: db, AFFORD_LOG_LEVEL: 'warn' });
    // A process that does not end (a worker thread holding it open) fails here by the test's time-out.
    const fast = await run(path.join(dir, 'fast.duckdb'), '2500');
    expect(fast.code, fast.stderr).toBe(0);
    expect(fast.stdout).toContain(`read ${lines.length},`);
    // Batches below the fast path's threshold: every event through the schema.
    const slow = await run(path.join(dir, 'slow.duckdb'), '1000');
    expect(slow.code, slow.stderr).toBe(0);
    expect(fast.stdout.split('\n')[0]).toBe(slow.stdout.split('\n')[0]);
    expect(await tables(path.join(dir, 'fast.duckdb'))).toEqual(await tables(path.join(dir, 'slow.duckdb')));
  });
});
