import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { listSqlFiles, sqlFile } from '../../src/db/sql-files.js';
import { Store } from '../../src/db/store.js';
import type { IngestPipeline } from '../../src/ingest/pipeline.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { rowsAs } from './rows.js';
import { writeEventsFile, type GenerateOptions } from '../../src/generate/index.js';
import { ingestFile } from '../../src/ingest/file-source.js';

export const silentLogger = createLogger('silent');

/** The storage format DuckDB records for a connection's default database (its tag, such as 'v1.0.0+'), as one row `{ format }`. */
export const STORAGE_FORMAT_SQL = "SELECT tags['storage_version'] AS format FROM duckdb_databases() WHERE database_name = current_database()";

/**
 * Applies afford's migrations numbered below `before` (all of them when not
 * given), each recorded as applied, on a connection to a file DuckDB opened
 * itself: a store as an earlier afford left it, for the tests of what a
 * later migration does to one.
 */
export async function applyMigrationsBefore(conn: DuckDBConnection, before = Number.POSITIVE_INFINITY): Promise<void> {
  await conn.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)');
  for (const file of listSqlFiles('migrations').filter((f) => Number(f.slice(0, 3)) < before && !f.endsWith('.batch.sql'))) {
    await conn.run(sqlFile(`migrations/${file.slice(0, -4)}`));
    await conn.run('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [Number(file.slice(0, 3)), file]);
  }
}

/** A real DuckDB file in a fresh temporary folder; `logger` is the store's. */
export async function tempStore(logger: Logger = silentLogger): Promise<{ store: Store; pipeline: IngestPipeline; dir: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-test-'));
  const store = await Store.open(path.join(dir, 'afford.duckdb'), logger);
  const pipeline = buildPipeline(store, silentLogger);
  return {
    store,
    pipeline,
    dir,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function fixturePath(name: string): string {
  return path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', name);
}

export async function rows<T = Record<string, unknown>>(store: Store, sql: string): Promise<T[]> {
  return store.read((conn) => rowsAs<T>(conn, sql));
}

/** Generates events into a file in the store's folder and ingests it, as `afford generate | afford ingest file` would. */
export async function ingestGenerated(ctx: { pipeline: IngestPipeline; dir: string }, options: GenerateOptions): Promise<void> {
  const file = path.join(ctx.dir, 'events.ndjson');
  await writeEventsFile(options, file);
  await ingestFile(ctx.pipeline, file, { batchRows: 5000 });
}
