import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportParquetJob, SNAPSHOT_FILE } from '../../jobs/export-parquet.js';
import { runJob } from '../../jobs/runner.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { loadConfig } from '../../src/config.js';
import { rowsAs } from '../helpers/rows.js';
import { Store } from '../../src/db/store.js';
import { FEW_STORED_CUSTOMERS } from '../../src/ingest/stored-rows-lookup.js';
import { loggedLines } from '../helpers/log-lines.js';
import { applyMigrationsBefore, ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';
import { upsertItem } from '../helpers/transaction-events.js';

/** Rows whose key hash is not the one the running DuckDB gives their key. */
const WRONG = 'SELECT count(*)::INTEGER AS n FROM transactions WHERE key_hash IS DISTINCT FROM transaction_key_hash(client_id, customer_id, transaction_id)';
const COUNTS = "SELECT count(*)::INTEGER AS n, sum(amount)::VARCHAR AS total FROM transactions WHERE customer_id = 'cust-0'";

/**
 * A store as an afford before key hashes left it, in the file format DuckDB
 * writes by default (row groups of 122,880 rows): every migration before
 * 018, and 20,000 transactions of 40 customers, 500 each, of 1.00.
 */
async function writeStoreBeforeKeyHashes(dbPath: string): Promise<void> {
  const instance = await DuckDBInstance.create(dbPath);
  const conn = await instance.connect();
  await applyMigrationsBefore(conn, 18);
  await conn.run(`
    INSERT INTO customers (client_id, customer_id, hosted) SELECT 'client-a', 'cust-' || i, true FROM range(40) r(i);
    INSERT INTO transactions (client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount,
                              currency, date_time, month, status, category_l1, category_l2, tags, occurred_at, event_id)
    SELECT 'client-a', 'cust-' || (i % 40), 'tx-' || i, 'acc-1', 'Monzo', 'PAY', 'credit', 1, 'GBP', TIMESTAMP '2024-04-02 09:00:00',
           DATE '2024-04-01', 'booked', 'income', 'salary', [], TIMESTAMP '2024-05-01 00:00:00', 'ev-' || i
    FROM range(20000) r(i);`);
  conn.closeSync();
  instance.closeSync();
}

/** The same 40 customers and 20,000 transactions in a store afford made, each row with its key hash. */
async function writeHashedStore(dbPath: string): Promise<void> {
  const store = await Store.open(dbPath, silentLogger);
  await store.write((conn) => conn.run(`
    INSERT INTO customers (client_id, customer_id, hosted) SELECT 'client-a', 'cust-' || i, true FROM range(40) r(i);
    INSERT INTO transactions (client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount,
                              currency, date_time, month, status, category_l1, category_l2, tags, occurred_at, event_id, key_hash)
    SELECT 'client-a', 'cust-' || (i % 40), 'tx-' || i, 'acc-1', 'Monzo', 'PAY', 'credit', 1, 'GBP', TIMESTAMP '2024-04-02 09:00:00',
           DATE '2024-04-01', 'booked', 'income', 'salary', [], TIMESTAMP '2024-05-01 00:00:00', 'ev-' || i,
           transaction_key_hash('client-a', 'cust-' || (i % 40), 'tx-' || i)
    FROM range(20000) r(i);`));
  await store.close();
}

const UNHASHED = 'SELECT count(*)::INTEGER AS n FROM transactions WHERE key_hash IS NULL';

/** As if the key hashes had been made by an older DuckDB whose hash() gave other values: the store drops them as it opens. */
async function dropHashes(dbPath: string): Promise<void> {
  const instance = await DuckDBInstance.create(dbPath);
  const conn = await instance.connect();
  await conn.run("UPDATE transactions SET key_hash = key_hash // 2; UPDATE transaction_key_hashing SET canary = '[1, 2, 3, 4, 5]'");
  conn.closeSync();
  instance.closeSync();
}

/** A newer version of stored transaction tx-0 (cust-0's), of 5.00 instead of 1.00. */
const newerVersion = () => upsertItem({ eventId: 'ev-newer', customer: 'cust-0', tx: 'tx-0', amount: '5.00', occurred: '2024-06-01T00:00:00Z' });

describe("the transactions' key hashes", () => {
  let dir: string;
  let dbPath: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'afford-key-hashes-'));
    dbPath = path.join(dir, 'afford.duckdb');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are given to the rows of a store written before them as it opens, the table made again, and a newer version then replaces its stored row', async () => {
    await writeStoreBeforeKeyHashes(dbPath);
    const store = await Store.open(dbPath, silentLogger);
    try {
      expect(await rows(store, WRONG)).toEqual([{ n: 0 }]);
      expect(await rows(store, 'SELECT count(*)::INTEGER AS n FROM transactions')).toEqual([{ n: 20000 }]);
      expect(await rows(store, COUNTS)).toEqual([{ n: 500, total: '500.00' }]);
      const result = await buildPipeline(store, silentLogger).ingest([newerVersion()]);
      expect(result).toMatchObject({ inserted: 0, updated: 1 });
      // Replaced, not stored beside: 499 rows of 1.00 and one of 5.00.
      expect(await rows(store, COUNTS)).toEqual([{ n: 500, total: '504.00' }]);
      // The store takes more rows after (DuckDB adding the column to a table of its older format failed the next append).
      await buildPipeline(store, silentLogger).ingest(Array.from({ length: 3000 }, (_, i) =>
        upsertItem({ eventId: `ev-more-${i}`, customer: 'cust-more', tx: `tx-more-${i}`, amount: '1.00', occurred: '2024-06-01T00:00:00Z' })));
      await store.checkpoint();
      expect(await rows(store, 'SELECT count(*)::INTEGER AS n FROM transactions')).toEqual([{ n: 23000 }]);
    } finally {
      await store.close();
    }
  });

  it.each([
    ['few stored customers, looked for by customer too', 3, 'hashed'],
    ['many stored customers, looked for by key hash alone', 40, 'hashed'],
    ['few stored customers, in a store from before the hashes', 3, 'before'],
    ['many stored customers, in a store from before the hashes', 40, 'before'],
    ['few stored customers whose hashes were dropped, found by key', 3, 'dropped'],
    ['many stored customers whose hashes were dropped, found by key', 40, 'dropped'],
  ])('find the stored rows of a batch of %s', async (_, customers, kind) => {
    expect(customers > FEW_STORED_CUSTOMERS).toBe(customers === 40);
    await (kind === 'before' ? writeStoreBeforeKeyHashes(dbPath) : writeHashedStore(dbPath));
    if (kind === 'dropped') await dropHashes(dbPath);
    const store = await Store.open(dbPath, silentLogger);
    try {
      // A newer version of one stored transaction of each customer, and a new transaction of each.
      const batch = Array.from({ length: customers }, (_, i) => [
        upsertItem({ eventId: `ev-newer-${i}`, customer: `cust-${i}`, tx: `tx-${i}`, amount: '5.00', occurred: '2024-06-01T00:00:00Z' }),
        upsertItem({ eventId: `ev-new-${i}`, customer: `cust-${i}`, tx: `tx-new-${i}`, amount: '7.00', occurred: '2024-06-01T00:00:00Z' }),
      ]).flat();
      expect(await buildPipeline(store, silentLogger).ingest(batch)).toMatchObject({ inserted: customers, updated: customers });
      expect(await rows(store, 'SELECT count(*)::INTEGER AS n, sum(amount)::VARCHAR AS total FROM transactions')).toEqual([{ n: 20000 + customers, total: `${20000 + customers * 4 + customers * 7}.00` }]);
    } finally {
      await store.close();
    }
  });

  it('are dropped when the running DuckDB hashes otherwise than the one that made them, and the ingest still finds the stored rows', async () => {
    await writeHashedStore(dbPath);
    await dropHashes(dbPath);

    const { logger, lines } = loggedLines('info');
    const store = await Store.open(dbPath, logger);
    try {
      expect(lines.filter((l) => l.msg.startsWith("DuckDB's hash() has changed"))).toMatchObject([{ was: '[1, 2, 3, 4, 5]', level: 40 }]);
      expect(await rows(store, UNHASHED)).toEqual([{ n: 20000 }]);
      expect(await buildPipeline(store, silentLogger).ingest([newerVersion()])).toMatchObject({ inserted: 0, updated: 1 });
      expect(await rows(store, COUNTS)).toEqual([{ n: 500, total: '504.00' }]);
    } finally {
      await store.close();
    }
    // The canary is now the running DuckDB's: opening again drops nothing.
    const again = loggedLines('info');
    await (await Store.open(dbPath, again.logger)).close();
    expect(again.lines.filter((l) => l.msg.startsWith("DuckDB's hash() has changed"))).toEqual([]);
  });

  it("leads to another transaction's row only as a candidate: a row whose hash is the same as a new key's is left alone", async () => {
    const store = await Store.open(dbPath, silentLogger);
    try {
      const pipeline = buildPipeline(store, silentLogger);
      await pipeline.ingest([upsertItem({ eventId: 'ev-1', customer: 'cust-0', tx: 'tx-stored', amount: '1.00', occurred: '2024-05-01T00:00:00Z' })]);
      // Two keys with one hash: the stored row is given the hash of tx-other's key.
      await store.write((conn) => conn.run("UPDATE transactions SET key_hash = transaction_key_hash('client-a', 'cust-0', 'tx-other')"));
      const result = await pipeline.ingest([upsertItem({ eventId: 'ev-2', customer: 'cust-0', tx: 'tx-other', amount: '2.00', occurred: '2024-05-01T00:00:00Z' })]);
      expect(result).toMatchObject({ inserted: 1, updated: 0 });
      expect(await rows(store, "SELECT transaction_id, amount::VARCHAR AS amount FROM transactions ORDER BY 1")).toEqual([
        { transaction_id: 'tx-other', amount: '2.00' },
        { transaction_id: 'tx-stored', amount: '1.00' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('are only a short cut for the judge: with every key given one hash, each is judged the longer way, to the same rows, deletions and totals', async () => {
    const stores = [await tempStore(), await tempStore()];
    const [asMade, oneHash] = stores as [Awaited<ReturnType<typeof tempStore>>, Awaited<ReturnType<typeof tempStore>>];
    try {
      await oneHash.store.write((conn) => conn.run('CREATE OR REPLACE MACRO transaction_key_hash(client_id, customer_id, transaction_id) AS 42::UBIGINT'));
      const contents = async (store: Store) => ({
        transactions: await rows(store, 'SELECT * EXCLUDE (key_hash, updated_at) FROM transactions ORDER BY client_id, customer_id, transaction_id'),
        tombstones: await rows(store, 'SELECT * FROM tombstones ORDER BY ALL'),
        deletions: await rows(store, 'SELECT client_id, customer_id, transaction_id FROM transaction_deletions ORDER BY ALL'),
        totals: await rows(store, 'SELECT * FROM monthly_category_totals ORDER BY ALL'),
        deadLetters: await rows(store, 'SELECT line_number, reason FROM dead_letters ORDER BY ALL'),
      });
      // Versions out of order, replays, deletions and re-creations across batches of 5,000; then the whole file again, every event a replay.
      for (const ctx of stores) {
        for (let pass = 0; pass < 2; pass++) await ingestGenerated(ctx, { customers: 12, months: 6, seed: 11, faults: true, endMonth: '2024-06' });
      }
      expect(await rows(oneHash.store, 'SELECT DISTINCT key_hash::VARCHAR AS h FROM transactions')).toEqual([{ h: '42' }]);
      const made = await contents(asMade.store);
      expect(made.transactions.length).toBeGreaterThan(1000);
      expect(made.tombstones.length).toBeGreaterThan(0);
      expect(await contents(oneHash.store)).toEqual(made);
    } finally {
      for (const ctx of stores) await ctx.cleanup();
    }
  });

  it('stay in the store: neither the Parquet export nor the snapshot has them', async () => {
    await writeStoreBeforeKeyHashes(dbPath);
    const store = await Store.open(dbPath, silentLogger);
    const exportDir = path.join(dir, 'export');
    try {
      const config = loadConfig({}, { AFFORD_DB: dbPath, AFFORD_EXPORT_DIR: exportDir });
      expect((await runJob(exportParquetJob, { store, config, logger: silentLogger }, 'cli')).status).toBe('succeeded');
      const stored = (await rows<{ c: string }>(store, "SELECT column_name AS c FROM duckdb_columns() WHERE table_name = 'transactions' ORDER BY column_index")).map((r) => r.c);
      expect(stored).toContain('key_hash');
      const conn = await (await DuckDBInstance.create(':memory:')).connect();
      const parquet = (await rowsAs<{ c: string }>(conn, `SELECT column_name AS c FROM (DESCRIBE SELECT * FROM read_parquet('${path.join(exportDir, 'transactions', '*', '*.parquet')}', hive_partitioning = false))`)).map((r) => r.c);
      expect(parquet).toEqual(stored.filter((c) => c !== 'key_hash' && c !== 'month'));
      await conn.run(`ATTACH '${path.join(exportDir, SNAPSHOT_FILE)}' AS snap (READ_ONLY)`);
      const snapshot = (await rowsAs<{ c: string }>(conn, "SELECT column_name AS c FROM duckdb_columns() WHERE database_name = 'snap' AND table_name = 'transactions' ORDER BY column_index")).map((r) => r.c);
      expect(snapshot).toEqual(stored.filter((c) => c !== 'key_hash'));
      conn.closeSync();
    } finally {
      await store.close();
    }
  });
});
