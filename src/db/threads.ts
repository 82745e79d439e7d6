import { withDbSettingsRestored } from './db-settings.js';
import type { Store } from './store.js';

/**
 * Runs `fn` with DuckDB's `threads` setting at `threads`, then sets it back
 * to what it was, whether `fn` succeeds or fails (withDbSettings: the
 * setting is the whole instance's, changed between writes).
 */
export function withDbThreads<T>(store: Store, threads: number, fn: () => Promise<T>): Promise<T> {
  return withDbSettingsRestored(store, { threads }, fn);
}
