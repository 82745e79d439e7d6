import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { loadConfig, storeOptions } from '../../src/config.js';
import type { RawItem } from '../../src/ingest/types.js';
import { rows, silentLogger } from '../helpers/store.js';
import { deleteItem, upsertItem } from '../helpers/transaction-events.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A transaction event of cust-1: `tx` dated the 2nd of `month`, as of `occurred`. */
const txItem = (n: number, tx: string, month: string, amount: string, occurred: string, category = 'salary'): RawItem =>
  upsertItem({ eventId: `ev-${n}`, customer: 'cust-1', tx, month, amount, occurred, category });

const walBytes = (db: string): number => (existsSync(`${db}.wal`) ? statSync(`${db}.wal`).size : 0);

/**
 * Three batches of cust-1: April (tx-1, tx-2 salary, tx-3 child benefit: two
 * totals rows) and May (tx-4: one); then a newer tx-1; then tx-2 deleted.
 * Returns the changed rows each batch counted and the log's size after each.
 */
async function threeBatches(store: Store): Promise<{ changed: number[]; wal: number[] }> {
  const pipeline = buildPipeline(store, silentLogger);
  const db = store.path;
  const changed: number[] = [];
  const wal: number[] = [];
  const batches: RawItem[][] = [
    [
      txItem(1, 'tx-1', '2024-04', '100.00', '2024-05-01T00:00:00Z'),
      txItem(2, 'tx-2', '2024-04', '20.00', '2024-05-01T00:00:00Z'),
      txItem(3, 'tx-3', '2024-04', '3.00', '2024-05-01T00:00:00Z', 'child_benefit'),
      txItem(4, 'tx-4', '2024-05', '7.00', '2024-05-01T00:00:00Z'),
    ],
    [txItem(5, 'tx-1', '2024-04', '150.00', '2024-05-02T00:00:00Z')],
    [deleteItem({ eventId: 'ev-6', customer: 'cust-1', tx: 'tx-2', occurred: '2024-05-03T00:00:00Z' })],
  ];
  for (const batch of batches) {
    const result = await pipeline.ingest(batch);
    changed.push(result.changedRows);
    // A checkpoint the batch asked for is queued behind it on the writer: this waits for it.
    await store.writeUntransacted(async () => undefined);
    wal.push(walBytes(db));
  }
  return { changed, wal };
}

describe('the store checkpoints once writes have changed enough stored rows', () => {
  it('counts the stored rows each batch deletes or replaces: the older version, and the totals rows whose figures changed, not the others of the month', async () => {
    const store = await Store.open(path.join(dir, 'count.duckdb'), silentLogger, { checkpointThreshold: '1GB' });
    try {
      const { changed } = await threeBatches(store);
      // Nothing stored before the first batch. The second replaces tx-1 and rewrites April's salary row, and
      // leaves April's child benefit row as it was; the third removes tx-2 and rewrites the salary row again.
      expect(changed).toEqual([0, 1 + 1, 1 + 1]);
      // The totals still equal their transactions: tx-1 at 150.00, tx-2 gone.
      expect(await rows(store, "SELECT strftime(month, '%Y-%m') AS month, category_l2, total::VARCHAR AS total, transaction_count FROM monthly_category_totals ORDER BY ALL")).toEqual([
        { month: '2024-04', category_l2: 'child_benefit', total: '3.00', transaction_count: 1 },
        { month: '2024-04', category_l2: 'salary', total: '150.00', transaction_count: 1 },
        { month: '2024-05', category_l2: 'salary', total: '7.00', transaction_count: 1 },
      ]);
    } finally {
      await store.close();
    }
  });

  it('writes the log into the file when the count reaches the setting, and not before; at 0 it leaves that to the log size', async () => {
    // DuckDB's own threshold far above anything written here: only the count can start a checkpoint.
    const counted = await Store.open(path.join(dir, 'at-4.duckdb'), silentLogger, { checkpointThreshold: '1GB', checkpointChangedRows: 4 });
    let wal: number[];
    try {
      ({ wal } = await threeBatches(counted));
    } finally {
      await counted.close();
    }
    // 0, then 2 changed rows: below 4, the log keeps growing; 4 after the third batch: checkpointed, the log emptied.
    expect(wal[0]).toBeGreaterThan(0);
    expect(wal[1]).toBeGreaterThan(wal[0] as number);
    expect(wal[2]).toBe(0);

    const off = await Store.open(path.join(dir, 'off.duckdb'), silentLogger, { checkpointThreshold: '1GB', checkpointChangedRows: 0 });
    try {
      ({ wal } = await threeBatches(off));
    } finally {
      await off.close();
    }
    expect(wal[2]).toBeGreaterThan(wal[1] as number);
  });

  it('opens the store with AFFORD_DB_CHECKPOINT_CHANGED_ROWS, 100,000 unless set, and refuses a value that is not a whole number', () => {
    expect(storeOptions(loadConfig({})).checkpointChangedRows).toBe(100_000);
    expect(storeOptions(loadConfig({}, { AFFORD_DB_CHECKPOINT_CHANGED_ROWS: '0' })).checkpointChangedRows).toBe(0);
    expect(() => loadConfig({}, { AFFORD_DB_CHECKPOINT_CHANGED_ROWS: 'many' })).toThrow(/AFFORD_DB_CHECKPOINT_CHANGED_ROWS/);
  });
});
