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
      throw affordErrorCausedBy(err, 'MIGRATION_FAILED', file, (err as Error).message);
    }
    if (moved === 0) break;
    total += moved;
    before = left;
  }
  if (total > 0) logger.info({ migration: file, rows: total }, 'applied migration batches');
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
  const [state] = await queryFile<{ other_tables: number; has_migrations: number }>(conn, 'queries/db/schema-state', {}, { other_tables: 'number', has_migrations: 'number' });
  if (state && state.has_migrations === 0 && state.other_tables > 0) throw affordError('STORE_NOT_AFFORD', where);
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
      throw affordErrorCausedBy(err, 'MIGRATION_FAILED', file, (err as Error).message);
    }
    logger.info({ migration: file }, 'applied migration');
    count++;
    if (batches) await runBatches(conn, logger, batches);
  }
  return count;
}
