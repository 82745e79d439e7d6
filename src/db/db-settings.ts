import { runScript } from './script.js';
import type { Store } from './store.js';

/** The DuckDB settings of the whole instance that afford changes while it runs, and the SQL file that sets each. */
const SETTERS = {
  checkpoint_threshold: 'queries/db/set-checkpoint-threshold',
  memory_limit: 'queries/db/set-memory-limit',
  threads: 'queries/db/set-threads',
} as const;

/** Sizes as text (such as '256MB'), threads as a number. */
export type DbSettings = Partial<Record<keyof typeof SETTERS, string | number>>;

async function apply(store: Store, settings: DbSettings): Promise<void> {
  await store.writeUntransacted(async (conn) => {
    for (const [name, value] of Object.entries(settings)) await runScript(conn, SETTERS[name as keyof typeof SETTERS], { value });
  });
}

/**
 * Runs `fn` with DuckDB's settings at `during`, then sets them to `after`,
 * whether `fn` succeeds or fails. The settings are the whole instance's:
 * anything else the process does meanwhile (an ingest or a read in `afford
 * serve`) runs with them too. Set on the writer queue, so that they change
 * between writes, never during one. A setting that cannot be set back (a
 * lower memory limit, while DuckDB cannot evict enough) stays as it was
 * during `fn`, and says so in the log: `fn`'s own outcome stands.
 */
export async function withDbSettings<T>(store: Store, during: DbSettings, after: DbSettings, fn: () => Promise<T>): Promise<T> {
  await apply(store, during);
  try {
    return await fn();
  } finally {
    await apply(store, after).catch((err: unknown) => store.logger.warn({ err, settings: after }, 'could not set DuckDB\'s settings back; they stay as they were'));
  }
}
