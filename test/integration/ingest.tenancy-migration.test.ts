import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { applyMigrationsBefore, rows, silentLogger } from '../helpers/store.js';
import { transactionEvent } from '../helpers/webhooks.js';

/**
 * A file written before customers were keyed by client: the schema of the
 * migrations before 005, with a customer, their data, and the tombstone of a
 * deleted customer. Opening it migrates it in place.
 */
async function writeOldFile(dbPath: string): Promise<void> {
  const instance = await DuckDBInstance.create(dbPath);
  const conn = await instance.connect();
  await applyMigrationsBefore(conn, 5);
  await conn.run(`
    INSERT INTO api_clients (client_id, name, secret_hash) VALUES ('client-old', 'old', 'x'), ('client-new', 'new', 'x');
    INSERT INTO customers (customer_id, client_id, hosted, secret_hash) VALUES ('c-1', 'client-old', false, 'sha256$salt$00');
    INSERT INTO accounts VALUES ('c-1', 'acc-1', 'GBP', 'Holder', 'account_holder', 'Current', 'current', 'personal', 'Monzo', NULL, NULL,
                                 TIMESTAMP '2024-03-01 00:00:00', 'ev-a', current_timestamp);
    INSERT INTO balances VALUES ('c-1', 'acc-1', 0, TIMESTAMP '2024-03-31 00:00:00', 10.00, 'GBP', 'expected', 'credit');
    INSERT INTO transactions (customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount, currency,
                              date_time, month, status, category_l1, category_l2, tags, occurred_at, event_id)
    VALUES ('c-1', 't-1', 'acc-1', 'Monzo', 'TESCO', 'debit', 12.34, 'GBP', TIMESTAMP '2024-03-05 10:00:00', DATE '2024-03-01', 'booked',
            'food_and_drink', 'groceries', [], TIMESTAMP '2024-03-05 10:00:00', 'ev-t');
    INSERT INTO monthly_category_totals SELECT * FROM monthly_category_totals_computed;
    INSERT INTO tombstones VALUES ('transaction', 'c-1', 't-gone', TIMESTAMP '2024-03-06 00:00:00', 'ev-d'),
                                  ('customer', 'c-deleted', 'c-deleted', TIMESTAMP '2024-03-10 00:00:00', 'ev-cd');
    INSERT INTO customer_applications VALUES ('c-1', 'app-1', '{}', TIMESTAMP '2024-03-01 00:00:00', 'ev-app', current_timestamp);
  `);
  conn.closeSync();
  instance.closeSync();
}

describe('migrating a file to customers keyed by client', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'afford-tenancy-migration-'));
    const dbPath = path.join(dir, 'afford.duckdb');
    await writeOldFile(dbPath);
    store = await Store.open(dbPath, silentLogger);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every row its customer\'s client, and keeps the rest as it was', async () => {
    for (const table of ['customers', 'accounts', 'balances', 'transactions', 'monthly_category_totals', 'customer_applications']) {
      expect(await rows(store, `SELECT client_id, customer_id FROM ${table}`), table).toEqual([{ client_id: 'client-old', customer_id: 'c-1' }]);
    }
    expect(await rows(store, "SELECT hosted, secret_hash FROM customers")).toEqual([{ hosted: false, secret_hash: 'sha256$salt$00' }]);
    expect(await rows(store, "SELECT total::VARCHAR AS total FROM monthly_category_totals_computed WHERE client_id = 'client-old'")).toEqual([{ total: '12.34' }]);
    // The deleted customer's client is unknown: its tombstone holds back every client's older events, as before.
    expect(await rows(store, 'SELECT record_type, client_id, customer_id, record_id FROM tombstones ORDER BY ALL')).toEqual([
      { record_type: 'customer', client_id: 'client-new', customer_id: 'c-deleted', record_id: 'c-deleted' },
      { record_type: 'customer', client_id: 'client-old', customer_id: 'c-deleted', record_id: 'c-deleted' },
      { record_type: 'transaction', client_id: 'client-old', customer_id: 'c-1', record_id: 't-gone' },
    ]);
  });

  it('lets another client use the same customer id after the migration', async () => {
    const pipeline = buildPipeline(store, silentLogger);
    const result = await pipeline.ingest([
      { raw: JSON.stringify(transactionEvent('client-new', 'c-1', 't-1', { amount: '99.00' })), ref: { source: 'file', sourceRef: 'm', lineNumber: 1 } },
      { raw: JSON.stringify(transactionEvent('client-new', 'c-deleted', 't-x', { occurredAt: '2024-03-01T00:00:00Z' })), ref: { source: 'file', sourceRef: 'm', lineNumber: 2 } },
    ]);
    expect(result).toMatchObject({ inserted: 1, skipped: 1, deadLetters: [] });
    expect(await rows(store, "SELECT client_id, amount::VARCHAR AS amount FROM transactions WHERE transaction_id = 't-1' ORDER BY 1")).toEqual([
      { client_id: 'client-new', amount: '99.00' },
      { client_id: 'client-old', amount: '12.34' },
    ]);
  });
});
