import { runScript } from './script.js';
import type { Store } from './store.js';

/**
 * Runs `fn` with DuckDB's checkpoint threshold at `during`, then sets it to
 * `after`, whether `fn` succeeds or fails. The setting is the whole
 * instance's: anything else the process writes meanwhile (an ingest in
 * `afford serve`) runs with it too. Set on the writer queue, so that it
 * changes between writes, never during one.
 */
export async function withCheckpointThreshold<T>(store: Store, during: string, after: string, fn: () => Promise<T>): Promise<T> {
  await store.writeUntransacted((conn) => runScript(conn, 'queries/db/set-checkpoint-threshold', { threshold: during }));
  try {
    return await fn();
  } finally {
    await store.writeUntransacted((conn) => runScript(conn, 'queries/db/set-checkpoint-threshold', { threshold: after }));
  }
}
