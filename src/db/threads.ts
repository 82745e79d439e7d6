import { withDbSettings } from './db-settings.js';
import { queryFile } from './script.js';
import type { Store } from './store.js';

/**
 * Runs `fn` with DuckDB's `threads` setting at `threads`, then sets it back
 * to what it was, whether `fn` succeeds or fails (withDbSettings: the
 * setting is the whole instance's, changed between writes).
 */
export async function withDbThreads<T>(store: Store, threads: number, fn: () => Promise<T>): Promise<T> {
  const previous = await store.writeUntransacted(async (conn) => {
    const [row] = await queryFile<{ threads: number }>(conn, 'queries/db/threads', {}, { threads: 'number' });
    return row?.threads;
  });
  return withDbSettings(store, { threads }, previous === undefined ? {} : { threads: previous }, fn);
}
