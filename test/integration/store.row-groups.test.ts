import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { queryRows } from '../../src/db/rows.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { generateEvents } from '../../src/generate/index.js';
import { silentLogger } from '../helpers/store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-row-groups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TABLES = [
  'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY ALL',
  'SELECT * FROM monthly_category_totals ORDER BY ALL',
  'SELECT line_number, reason FROM dead_letters ORDER BY ALL',
];

async function tables(store: Store): Promise<unknown[]> {
  return store.read(async (conn) => Promise.all(TABLES.map((sql) => queryRows(conn, sql))));
}

/** Opens a store file, returns its tables, and closes it. */
async function tablesOf(db: string): Promise<unknown[]> {
  const store = await Store.open(db, silentLogger);
  try {
    return await tables(store);
  } finally {
    await store.close();
  }
}

describe('the store writes the rows of a large batch into its file once', () => {
  it('a batch of 20,000 events or more goes into the file, not through the write-ahead log, and a copy taken right after the commit (a crash) reads back the same', { timeout: 180_000 }, async () => {
    const file = path.join(dir, 'events.ndjson');
    const lines = [...generateEvents({ customers: 36, months: 12, seed: 5, faults: true, endMonth: '2024-12' })].map((l) => l.trimEnd());
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(lines.length).toBeGreaterThan(20_000);
    expect(lines.length).toBeLessThan(30_000);

    // One batch, and a log large enough that DuckDB never checkpoints during the test.
    const db = path.join(dir, 'one-batch.duckdb');
    const store = await Store.open(db, silentLogger, { checkpointThreshold: '1GB' });
    let crashCopy: string;
    let committed: unknown[];
    try {
      const summary = await ingestFile(buildPipeline(store, silentLogger), file, { batchRows: 30_000 });
      expect(summary.read).toBe(lines.length);
      const [{ n, text_bytes }] = (await store.read((conn) =>
        queryRows(conn, 'SELECT count(*)::INTEGER AS n, sum(length(client_id) + length(customer_id) + length(transaction_id) + length(account_id) + length(provider) + length(description) + length(category_l1) + length(category_l2) + length(event_id))::INTEGER AS text_bytes FROM transactions'),
      )) as [{ n: number; text_bytes: number }];
      expect(n).toBeGreaterThan(20_000);
      // Logged row by row, the log would hold at least the rows' own text; it holds where their blocks are, and the small tables.
      const wal = statSync(`${db}.wal`).size;
      expect(wal).toBeLessThan(text_bytes / 2);
      committed = await tables(store);
      // The file and its log as they are after the commit, before any checkpoint: what a SIGKILL would leave.
      crashCopy = path.join(dir, 'crash-copy.duckdb');
      copyFileSync(db, crashCopy);
      copyFileSync(`${db}.wal`, `${crashCopy}.wal`);
    } finally {
      await store.close();
    }
    expect(await tablesOf(crashCopy)).toEqual(committed);
    expect(await tablesOf(db)).toEqual(committed);

    // The same events in batches below the fast path's threshold, every row through the log: the same tables.
    const small = path.join(dir, 'small-batches.duckdb');
    const reference = await Store.open(small, silentLogger);
    try {
      await ingestFile(buildPipeline(reference, silentLogger), file, { batchRows: 1_000 });
    } finally {
      await reference.close();
    }
    expect(await tablesOf(small)).toEqual(committed);
  });
});
