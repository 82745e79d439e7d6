import type { CustomerRef } from '../domain/customer-ref.js';
import type { Store } from './store.js';

/**
 * What a committed write changed, for whoever keeps answers derived from the
 * store (the API's read cache): some customers' data, some clients' bucket
 * definitions or credentials, or anything at all (a job).
 */
export type DataChange =
  | { kind: 'customers'; customers: readonly CustomerRef[] }
  | { kind: 'clients'; clientIds: readonly string[] }
  | { kind: 'everything' };

export type DataChangeListener = (change: DataChange) => void;

/** Per store, like the ingest pipeline's commit listeners: whoever writes and whoever caches need not know each other. */
const listeners = new WeakMap<Store, DataChangeListener[]>();

export function onDataChange(store: Store, listener: DataChangeListener): () => void {
  listeners.set(store, [...(listeners.get(store) ?? []), listener]);
  return () => listeners.set(store, (listeners.get(store) ?? []).filter((l) => l !== listener));
}

/** Called by a writer after its transaction has committed (never before: a read between would cache the old data). */
export function announceDataChange(store: Store, change: DataChange): void {
  for (const listener of listeners.get(store) ?? []) listener(change);
}
