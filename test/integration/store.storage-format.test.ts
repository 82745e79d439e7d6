import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { applyMigrationsBefore, rows, silentLogger, STORAGE_FORMAT_SQL as FORMAT } from '../helpers/store.js';
import { upsertItem } from '../helpers/transaction-events.js';

/** Every column of every transaction, as text, in one order. */
const ALL = 'SELECT COLUMNS(*)::VARCHAR FROM transactions ORDER BY client_id, customer_id, transaction_id';
/** The compressions of the text columns of transactions, as DuckDB reports them. */
const TEXT_COMPRESSIONS = "SELECT DISTINCT compression AS c FROM pragma_storage_info('transactions') WHERE segment_type = 'VARCHAR' ORDER BY 1";

/** A file as DuckDB creates one by default (the older storage format), with every migration applied and 20,000 transactions. */
async function writeOlderFile(dbPath: string): Promise<void> {
  const instance = await DuckDBInstance.create(dbPath);
  const conn = await instance.connect();
  await applyMigrationsBefore(conn);
  await conn.run(`
    INSERT INTO transactions (client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount,
                              currency, date_time, month, status, category_l1, category_l1_confidence, category_l2, category_l2_confidence,
                              regularity, tags, counterparty_name, occurred_at, event_id, updated_at)
    SELECT 'client-1', 'cust-' || (i % 40), 'tx-' || i, 'acc-' || (i % 80), 'Monzo', 'SHOP ' || (i % 997), CASE WHEN i % 9 = 0 THEN 'credit' ELSE 'debit' END,
           (i % 10000) / 100 + 1, 'GBP', TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 97), DATE '2024-01-01', 'booked',
           'food_and_drink', '0.95', 'groceries', NULL, CASE WHEN i % 5 = 0 THEN '{"frequency":"monthly"}' END::JSON,
           CASE WHEN i % 3 = 0 THEN ['online'] ELSE [] END, NULL, TIMESTAMP '2024-06-01 00:00:00', 'ev-' || i, TIMESTAMP '2024-06-01 00:00:00'
    FROM range(20000) r(i);
  `);
  conn.closeSync();
  instance.closeSync();
}

/** Ingests 3,000 transaction events of one customer (enough for the fast path), 1.00 to 30.00 each, into the store. */
async function ingestSome(store: Store, dir: string): Promise<void> {
  const file = path.join(dir, 'events.ndjson');
  const lines = Array.from(
    { length: 3000 },
    (_, i) => upsertItem({ eventId: `ev-new-${i + 1}`, customer: 'cust-new', tx: `tx-new-${i + 1}`, amount: `${(i % 30) + 1}.00`, occurred: '2024-05-01T00:00:00Z' }).raw,
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const summary = await ingestFile(buildPipeline(store, silentLogger), file, { batchRows: 25000 });
  expect(summary).toMatchObject({ read: 3000, inserted: 3000, deadLetters: 0 });
  await store.checkpoint();
}

describe('the storage format of the store file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'afford-format-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a new file in the newer format, whose text columns DuckDB stores as DICT_FSST', async () => {
    const dbPath = path.join(dir, 'new.duckdb');
    const store = await Store.open(dbPath, silentLogger);
    try {
      expect(await rows(store, FORMAT)).toEqual([{ format: 'v1.5.0+' }]);
      await ingestSome(store, dir);
      const compressions = (await rows<{ c: string }>(store, TEXT_COMPRESSIONS)).map((r) => r.c);
      expect(compressions).toContain('DICT_FSST');
      expect(compressions).not.toContain('Dictionary');
      expect(compressions).not.toContain('FSST');
      // 3,000 transactions of 1.00 to 30.00: a hundred of each, 46,500.00 in all.
      expect(await rows(store, "SELECT count(*)::INTEGER AS n, sum(amount)::VARCHAR AS total FROM transactions WHERE customer_id = 'cust-new'")).toEqual([{ n: 3000, total: '46500.00' }]);
    } finally {
      await store.close();
    }
    // Opened again, it is the same file in the same format.
    const again = await Store.open(dbPath, silentLogger);
    try {
      expect(await rows(again, FORMAT)).toEqual([{ format: 'v1.5.0+' }]);
      expect(await rows(again, 'SELECT count(*)::INTEGER AS n FROM transactions')).toEqual([{ n: 3000 }]);
    } finally {
      await again.close();
    }
  });

  it('keeps a file written before in its format, value for value, and writes into it', async () => {
    const dbPath = path.join(dir, 'older.duckdb');
    await writeOlderFile(dbPath);
    const old = await DuckDBInstance.create(dbPath);
    const conn = await old.connect();
    const before = (await conn.runAndReadAll(ALL)).getRowObjectsJson();
    conn.closeSync();
    old.closeSync();
    expect(before).toHaveLength(20000);

    const store = await Store.open(dbPath, silentLogger);
    try {
      expect(await rows(store, FORMAT)).toEqual([{ format: 'v1.0.0+' }]);
      expect(await rows(store, ALL)).toEqual(before);
      await ingestSome(store, dir);
      // DICT_FSST is not in the older format: its text columns keep the compressions it has.
      expect((await rows<{ c: string }>(store, TEXT_COMPRESSIONS)).map((r) => r.c)).not.toContain('DICT_FSST');
      expect(await rows(store, 'SELECT count(*)::INTEGER AS n FROM transactions')).toEqual([{ n: 23000 }]);
    } finally {
      await store.close();
    }
    // Still a file of the older format, which DuckDB opens as it did before.
    const reopened = await DuckDBInstance.create(dbPath);
    const c2 = await reopened.connect();
    expect((await c2.runAndReadAll(FORMAT)).getRowObjectsJson()).toEqual([{ format: 'v1.0.0+' }]);
    c2.closeSync();
    reopened.closeSync();
  });
});
