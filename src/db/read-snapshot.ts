import type { DuckDBConnection } from '@duckdb/node-api';
import type { Store } from './store.js';

/**
 * Runs `fn` on a reader connection inside one read transaction, so that all
 * of its queries see the same committed snapshot however many writes land
 * meanwhile. Nothing is written: rolling back just ends the snapshot, whether
 * or not a query failed.
 */
export function readSnapshot<T>(store: Store, fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  return store.read(async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    try {
      return await fn(conn);
    } finally {
      await conn.run('ROLLBACK');
    }
  });
}
