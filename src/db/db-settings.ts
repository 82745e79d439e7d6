import type { DuckDBConnection } from '@duckdb/node-api';
import { queryFile, runScript } from './script.js';
import type { Store } from './store.js';
import { errorCode } from '../domain/errors.js';

/** The DuckDB settings of the whole instance that afford changes while it runs, and the SQL file that sets each. */
const SETTERS = {
  checkpoint_threshold: 'queries/db/set-checkpoint-threshold',
  memory_limit: 'queries/db/set-memory-limit',
  threads: 'queries/db/set-threads',
  disabled_compression_methods: 'queries/db/set-disabled-compression-methods',
} as const;

/** Sizes as text (such as '256MB'), threads as a number, compression methods as a comma-separated list ('' for none). */
export type DbSettings = Partial<Record<keyof typeof SETTERS, string | number>>;

/** Sets `settings` on `conn`, the writer's, inside the writer queue. */
async function applyDbSettings(conn: DuckDBConnection, settings: DbSettings): Promise<void> {
  for (const [name, value] of Object.entries(settings)) await runScript(conn, SETTERS[name as keyof typeof SETTERS], { value });
}

async function apply(store: Store, settings: DbSettings): Promise<void> {
  await store.writeUntransacted((conn) => applyDbSettings(conn, settings));
}

/** What the named settings are now, read on `conn`, as DuckDB shows them (text that sets them back). */
export async function currentDbSettingsOn(conn: DuckDBConnection, names: ReadonlyArray<keyof DbSettings>): Promise<DbSettings> {
  if (names.length === 0) return {};
  const rows = await queryFile<{ name: string; value: string }>(conn, 'queries/db/current-settings', { names: JSON.stringify(names) }, { name: 'text', value: 'text' });
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

/**
 * Runs `fn` on the writer's `conn` (which the caller holds) with `during`,
 * then sets back what each was before, whether `fn` succeeds or fails; when
 * `fn` failed, its error is the one thrown, whatever setting back does.
 */
export async function withDbSettingsOn<T>(conn: DuckDBConnection, during: DbSettings, fn: () => Promise<T>): Promise<T> {
  const before = await currentDbSettingsOn(conn, Object.keys(during) as Array<keyof DbSettings>);
  let result: T;
  try {
    await applyDbSettings(conn, during);
    result = await fn();
  } catch (err) {
    await applyDbSettings(conn, before).catch(() => undefined);
    throw err;
  }
  await applyDbSettings(conn, before);
  return result;
}

/**
 * Sets `during`, then `after`, in one turn of the writer queue, so that no
 * write runs between the two: for a setting meant to last a moment only
 * (DuckDB's buffers emptied by a lower memory limit). Set in two turns, a
 * write queued meanwhile (a Kafka batch) ran at the lower limit. `after` is
 * set whether `during` could be or not.
 */
export async function momentaryDbSettings(store: Store, during: DbSettings, after: DbSettings): Promise<void> {
  await store.writeUntransacted(async (conn) => {
    try {
      await applyDbSettings(conn, during);
    } finally {
      await applyDbSettings(conn, after);
    }
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
  try {
    // Inside the try: a setting of `during` that fails after others were set still has them all set back.
    await apply(store, during);
    return await fn();
  } finally {
    // A store closed meanwhile (the service stopping) has no settings left to set back.
    await apply(store, after).catch((err: unknown) => {
      if (errorCode(err) !== 'STORE_CLOSED') store.logger.warn({ err, settings: after }, 'could not set DuckDB\'s settings back; they stay as they were');
    });
  }
}

/** withDbSettings, setting back afterwards what each setting of `during` was before. */
export async function withDbSettingsRestored<T>(store: Store, during: DbSettings, fn: () => Promise<T>): Promise<T> {
  const before = await store.writeUntransacted((conn) => currentDbSettingsOn(conn, Object.keys(during) as Array<keyof DbSettings>));
  return withDbSettings(store, during, before, fn);
}
