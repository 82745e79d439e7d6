import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSqlFiles, sqlFile } from '../../src/db/sql-files.js';
import { Store } from '../../src/db/store.js';
import { rows, silentLogger } from '../helpers/store.js';

/** Every column of every transaction, as text, in one order. */
const ALL = "SELECT COLUMNS(*)::VARCHAR FROM transactions ORDER BY client_id, customer_id, transaction_id";

/** A file with the schema of the migrations before the compression was named, holding 20,000 transactions. */
async function writeOldFile(dbPath: string): Promise<void> {
  const instance = await DuckDBInstance.create(dbPath);
  const conn = await instance.connect();
  await conn.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)');
  for (const file of listSqlFiles('migrations').filter((f) => Number(f.slice(0, 3)) < 14 && !f.endsWith('.batch.sql'))) {
    await conn.run(sqlFile(`migrations/${file.slice(0, -4)}`));
    await conn.run('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [Number(file.slice(0, 3)), file]);
  }
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

describe('the compression of transactions, named column by column', () => {
  let dir: string;
  let store: Store;
  let before: unknown[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'afford-compression-'));
    const dbPath = path.join(dir, 'afford.duckdb');
    await writeOldFile(dbPath);
    const old = await DuckDBInstance.create(dbPath);
    const conn = await old.connect();
    before = (await conn.runAndReadAll(ALL)).getRowObjectsJson();
    conn.closeSync();
    old.closeSync();
    store = await Store.open(dbPath, silentLogger);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every row of a file written before, value for value', async () => {
    expect(before).toHaveLength(20000);
    expect(await rows(store, ALL)).toEqual(before);
  });

  it('writes each text column with its named method, whatever DuckDB would have picked for the values', async () => {
    // Unique client ids (DuckDB would not pick a dictionary) and one event id throughout (it would not pick FSST).
    await store.writeUntransacted(async (conn) => {
      await conn.run(`
        INSERT INTO transactions (client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount,
                                  currency, date_time, month, status, category_l1, category_l2, tags, occurred_at, event_id)
        SELECT 'client-unique-' || i, 'cust-1', 'tx-' || i, 'acc-1', 'Monzo', 'SHOP', 'debit', 1, 'GBP', TIMESTAMP '2024-01-01 00:00:00',
               DATE '2024-01-01', 'booked', 'food_and_drink', 'groceries', [], TIMESTAMP '2024-06-01 00:00:00', 'ev-same'
        FROM range(40000) r(i)`);
      await conn.run('CHECKPOINT');
    });
    const used = await rows<{ column_name: string; compression: string }>(
      store,
      "SELECT DISTINCT column_name, compression FROM pragma_storage_info('transactions') WHERE segment_type = 'VARCHAR' AND column_name IN ('client_id', 'event_id') ORDER BY ALL",
    );
    expect(used).toEqual([
      { column_name: 'client_id', compression: 'Dictionary' },
      { column_name: 'event_id', compression: 'FSST' },
    ]);
  });
});
