import type { DuckDBConnection } from '@duckdb/node-api';
import { queryFile, runScript, runScriptCountingChanges } from './script.js';
import type { Logger } from '../logger.js';
import { affordError } from '../domain/errors.js';

/** Rows hashed in one transaction while a store's key hashes are filled. */
export const KEY_HASH_FILL_ROWS = 1_000_000;

/**
 * Makes every transaction's key hash (migration 018) the one the running
 * DuckDB computes, as the store opens, before anything reads or writes it:
 * DuckDB does not promise that hash() stays the same between its versions,
 * and a row whose hash is another function's would not be found by the
 * ingest, which would then store a second version beside it. When the
 * canary computed now is not the one stored, every row's hash is dropped;
 * then the rows without one (those stored before migration 018 too) are
 * hashed, a slice of `sliceRows` per transaction, so that memory
 * stays bounded on a large store and a stop part-way loses nothing (the
 * next open goes on). Runs on the writer connection, outside any transaction.
 */
export async function ensureKeyHashes(conn: DuckDBConnection, logger: Logger, sliceRows = KEY_HASH_FILL_ROWS): Promise<void> {
  const state = async () => (await queryFile<{ stored: string | null; current: string; unhashed: number }>(
    conn, 'queries/db/key-hash-state', {}, { stored: 'text', current: 'text', unhashed: 'number' }))[0];
  let s = await state();
  if (!s) return;
  if (s.stored !== s.current) {
    // None stored: migration 018 has just added the column, every row without a hash.
    const forget = s.stored !== null;
    if (forget) logger.warn({ was: s.stored, now: s.current }, "DuckDB's hash() has changed since the transactions' key hashes were made: hashing them again");
    await inTransaction(conn, async () => {
      if (forget) await runScript(conn, 'queries/db/key-hash-forget');
      await runScript(conn, 'queries/db/key-hash-record-canary');
    });
    s = await state();
    if (!s) return;
  }
  let hashed = 0;
  let slices = 0;
  while (s.unhashed > 0) {
    const changed = await inTransaction(conn, () => runScriptCountingChanges(conn, 'queries/db/key-hash-fill', { rows: sliceRows }));
    if (changed === 0) throw affordError('KEY_HASH_FILL_STUCK', s.unhashed);
    hashed += changed;
    slices += 1;
    s = { ...s, unhashed: s.unhashed - changed };
  }
  if (hashed > 0) logger.info({ rows: hashed, slices }, "hashed the transactions' keys");
}

async function inTransaction<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  await conn.run('BEGIN TRANSACTION');
  try {
    const result = await fn();
    await conn.run('COMMIT');
    return result;
  } catch (err) {
    await conn.run('ROLLBACK');
    throw err;
  }
}
