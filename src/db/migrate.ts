import type { DuckDBConnection } from '@duckdb/node-api';
import { listSqlFiles, sqlFile } from './sql-files.js';
import { queryRows } from './rows.js';
import type { Logger } from '../logger.js';
import { affordErrorCausedBy } from '../domain/errors.js';

/** Applies sql/migrations/NNN_name.sql in order, each in its own transaction, and records it. */
export async function migrate(conn: DuckDBConnection, logger: Logger): Promise<number> {
  await conn.run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)',
  );
  const applied = new Set((await queryRows<{ version: number }>(conn, 'SELECT version FROM schema_migrations', undefined, { version: 'number' }, 'schema_migrations')).map((r) => r.version));
  let count = 0;
  for (const file of listSqlFiles('migrations')) {
    const match = /^(\d+)_(.+)\.sql$/.exec(file);
    if (!match) continue;
    const version = Number(match[1]);
    if (applied.has(version)) continue;
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
  }
  return count;
}
