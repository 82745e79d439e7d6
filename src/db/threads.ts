import { queryFile, runScript } from './script.js';
import type { Store } from './store.js';

/**
 * Runs `fn` with DuckDB's `threads` setting at `threads`, then sets it back
 * to what it was, whether `fn` succeeds or fails. The setting is the whole
 * instance's: anything else the process runs meanwhile (an ingest, an API
 * read) runs with it too. Set on the writer queue, so that it changes
 * between writes, never during one.
 */
export async function withDbThreads<T>(store: Store, threads: number, fn: () => Promise<T>): Promise<T> {
  const previous = await store.writeUntransacted(async (conn) => {
    const [row] = await queryFile<{ threads: number }>(conn, 'queries/db/threads', {}, { threads: 'number' });
    await runScript(conn, 'queries/db/set-threads', { threads });
    return row?.threads;
  });
  try {
    return await fn();
  } finally {
    if (previous !== undefined && previous !== threads) {
      await store.writeUntransacted((conn) => runScript(conn, 'queries/db/set-threads', { threads: previous }));
    }
  }
}
