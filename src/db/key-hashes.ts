import type { DuckDBConnection } from '@duckdb/node-api';
import { inTransaction } from './in-transaction.js';
import { queryFile, runScript } from './script.js';
import type { Logger } from '../logger.js';

/**
 * Makes sure that no transaction's key hash (migration 018) is another
 * hash function's than the running DuckDB's, as the store opens, before
 * anything reads or writes it: DuckDB does not promise that hash() stays
 * the same between its versions, and a row whose hash was another
 * function's would not be found by its hash, so the ingest would store a
 * second version beside it. When the canary computed now is not the one
 * stored, every row's hash is dropped (the column dropped and added again,
 * which costs nothing a row), and the rows are then found by their key
 * columns (see judge-stored-rows.sql) until they are stored again. Runs on
 * the writer connection, outside any transaction.
 */
export async function ensureKeyHashes(conn: DuckDBConnection, logger: Logger): Promise<void> {
  const [s] = await queryFile<{ stored: string | null; current: string }>(conn, 'queries/db/key-hash-state', {}, { stored: 'text', current: 'text' });
  if (!s || s.stored === s.current) return;
  // None stored (migration 018 records one with the hashes it makes): record the running one.
  const forget = s.stored !== null;
  if (forget) logger.warn({ was: s.stored, now: s.current }, "DuckDB's hash() has changed since the transactions' key hashes were made: they are dropped, and the rows found by their key columns");
  await inTransaction(conn, async () => {
    if (forget) await runScript(conn, 'queries/db/key-hash-forget');
    await runScript(conn, 'queries/db/key-hash-record-canary');
  });
}
