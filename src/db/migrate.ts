import type { DuckDBConnection } from '@duckdb/node-api';
import { listSqlFiles, sqlFile } from './sql-files.js';
import { queryRows } from './rows.js';
import { queryFile, runScriptWithResult } from './script.js';
import type { Logger } from '../logger.js';
import { affordError, affordErrorCausedBy } from '../domain/errors.js';

/**
 * Runs a migration's batch file (NNN_name.batch.sql) until it has nothing
 * left to do, each run in its own transaction: for data too large to move
 * in one. Its last statement returns `moved`, the rows it took, and `left`,
 * those still to move; a run that moves none ends it, and one after which
 * no fewer are left fails the start rather than loop. It runs at every
 * start while the file is in sql/migrations/, so a move that a crash cut
 * short goes on; once done, a run costs a query on an empty table. A later
 * migration that drops what a batch file reads deletes that file with it.
 */
async function runBatches(conn: DuckDBConnection, logger: Logger, file: string): Promise<void> {
  const name = `migrations/${file.slice(0, -4)}`;
  let total = 0;
  let before = Number.POSITIVE_INFINITY;
  for (;;) {
    await conn.run('BEGIN TRANSACTION');
    let moved: number;
    let left: number;
    try {
      const result = await runScriptWithResult(conn, name);
      [moved, left] = [Number(result['moved'] ?? 0), Number(result['left'] ?? 0)];
      if (moved > 0 && !(left < before)) throw new Error(`a batch took ${moved} rows but ${left} are still left`);
      await conn.run('COMMIT');
    } catch (err) {
      await conn.run('ROLLBACK');
      // DuckDB's message runs over lines (a hint, the statement): its first says what failed.
      throw affordErrorCausedBy(err, 'MIGRATION_FAILED', file, String((err as Error).message).split('\n')[0]!.trim());
    }
    if (moved === 0) break;
    total += moved;
    before = left;
  }
  if (total > 0) logger.info({ migration: file, rows: total }, 'applied migration batches');
}

/** The columns of afford's record of migrations, as schema-state.sql lists them. */
const MIGRATION_COLUMNS = 'version INTEGER, name VARCHAR, applied_at TIMESTAMP';

/**
 * Refuses a file that holds tables but is not an afford store: no record of
 * migrations, or a record of that name that is another program's (other
 * columns, or rows without afford's first migration).
 */
async function refuseForeign(conn: DuckDBConnection, where: string): Promise<void> {
  const [state] = await queryFile<{ other_tables: number; has_migrations: number; migration_columns: string }>(
    conn, 'queries/db/schema-state', {}, { other_tables: 'number', has_migrations: 'number', migration_columns: 'text' });
  if (!state) return;
  if (state.has_migrations === 0) {
    if (state.other_tables > 0) throw affordError('STORE_NOT_AFFORD', where);
    return;
  }
  if (state.migration_columns !== MIGRATION_COLUMNS) throw affordError('STORE_NOT_AFFORD', where);
  const [record] = await queryFile<{ applied: number; has_core: number }>(conn, 'queries/db/schema-first-migration', {}, { applied: 'number', has_core: 'number' });
  if (record && (record.applied > 0 ? record.has_core === 0 : state.other_tables > 0)) throw affordError('STORE_NOT_AFFORD', where);
}

/**
 * Applies sql/migrations/NNN_name.sql in order, each in its own transaction,
 * and records it; then its batch file, if it has one. A file that holds
 * tables but no record of migrations is another program's database, which
 * afford would have filled with its own tables beside; one whose record
 * goes past the newest migration here was written by a newer afford, whose
 * tables this one may misread. Both are refused before anything is written.
 * `where` names the file in those messages.
 */
export async function migrate(conn: DuckDBConnection, logger: Logger, where = 'the store'): Promise<number> {
  await refuseForeign(conn, where);
  await conn.run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)',
  );
  const applied = new Set((await queryRows<{ version: number }>(conn, 'SELECT version FROM schema_migrations', undefined, { version: 'number' }, 'schema_migrations')).map((r) => r.version));
  let count = 0;
  const files = listSqlFiles('migrations');
  const newestKnown = Math.max(0, ...files.map((f) => Number(/^(\d+)_/.exec(f)?.[1] ?? 0)));
  const newestApplied = Math.max(0, ...applied);
  if (newestApplied > newestKnown) throw affordError('STORE_NEWER', where, String(newestApplied), String(newestKnown));
  for (const file of files) {
    const match = /^(\d+)_(.+)\.sql$/.exec(file);
    if (!match || file.endsWith('.batch.sql')) continue;
    const version = Number(match[1]);
    const batches = files.find((f) => f === `${file.slice(0, -4)}.batch.sql`);
    if (applied.has(version)) {
      if (batches) await runBatches(conn, logger, batches);
      continue;
    }
    await conn.run('BEGIN TRANSACTION');
    try {
      await conn.run(sqlFile(`migrations/${file.slice(0, -4)}`));
      await conn.run('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, match[2] ?? file]);
      await conn.run('COMMIT');
    } catch (err) {
      await conn.run('ROLLBACK');
      // DuckDB's message runs over lines (a hint, the statement): its first says what failed.
      throw affordErrorCausedBy(err, 'MIGRATION_FAILED', file, String((err as Error).message).split('\n')[0]!.trim());
    }
    logger.info({ migration: file }, 'applied migration');
    count++;
    if (batches) await runBatches(conn, logger, batches);
  }
  return count;
}
