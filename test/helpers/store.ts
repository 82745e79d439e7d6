import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Store } from '../../src/db/store.js';
import type { IngestPipeline } from '../../src/ingest/pipeline.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { createLogger } from '../../src/logger.js';
import { queryRows } from '../../src/db/rows.js';

export const silentLogger = createLogger('silent');

/** A real DuckDB file in a fresh temporary folder. */
export async function tempStore(): Promise<{ store: Store; pipeline: IngestPipeline; dir: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-test-'));
  const store = await Store.open(path.join(dir, 'afford.duckdb'), silentLogger);
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
  return store.read((conn) => queryRows<T>(conn, sql));
}
