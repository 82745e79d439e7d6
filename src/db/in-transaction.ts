import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Runs `fn` on `conn` inside one transaction, committed when it succeeds
 * and rolled back when it throws. The error that failed the transaction is
 * the one thrown, not any the ROLLBACK of an aborted transaction gives.
 * For a connection used outside the store's writer queue (the store's own
 * start-up, a job's attached file); writes through the store use Store.write.
 */
export async function inTransaction(conn: DuckDBConnection, fn: () => Promise<void>): Promise<void> {
  await conn.run('BEGIN TRANSACTION');
  try {
    await fn();
    await conn.run('COMMIT');
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
