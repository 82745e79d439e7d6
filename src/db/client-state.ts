import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { criterionRows } from '../domain/buckets.js';
import type { ClientStateChange } from '../domain/client-state.js';
import { dbFromIso, dbTime } from '../domain/timestamps.js';
import type { Columns } from './rows.js';
import { queryFile, runScript } from './script.js';
import type { Store } from './store.js';

/**
 * The seam between the code that changes client-level state (API clients,
 * bucket definitions, webhook subscriptions) and where that state lives.
 *
 * On one machine nothing is registered: repositories write their tables as
 * they always have. With several shards, the composition root registers a
 * writer for the store (a Kafka topic that every shard applies, see
 * src/cluster/), and the repositories hand it each change instead; the
 * change reaches this store's tables through applyClientState, exactly as it
 * reaches every other shard's.
 */

export interface ClientStateWriter {
  /** Resolves once the change is durable and applied to this worker's store. */
  write(change: ClientStateChange): Promise<void>;
  /** Resolves once this worker has applied every change written before the call, on any shard. */
  caughtUp(): Promise<void>;
}

const writers = new WeakMap<Store, ClientStateWriter>();
const listeners = new WeakMap<Store, Set<(changes: readonly ClientStateChange[]) => void>>();

export function setClientStateWriter(store: Store, writer: ClientStateWriter): void {
  writers.set(store, writer);
}

/** The writer registered for this store, or undefined on a single machine. */
export function clientStateWriter(store: Store): ClientStateWriter | undefined {
  return writers.get(store);
}

/**
 * Calls `listener` after each transaction that applied client-state changes
 * from elsewhere (a read cache drops what they touched). Returns the
 * function that stops it.
 */
export function onClientStateApplied(store: Store, listener: (changes: readonly ClientStateChange[]) => void): () => void {
  let set = listeners.get(store);
  if (!set) listeners.set(store, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

export function notifyClientStateApplied(store: Store, changes: readonly ClientStateChange[]): void {
  for (const listener of listeners.get(store) ?? []) listener(changes);
}

/**
 * Writes one change into this store's tables, inside the writer's
 * transaction, whatever is stored: what a record becomes depends on the
 * last change of it alone, which is all a compacted topic keeps, so that a
 * shard that reads the topic from the start builds what the others hold.
 * (A change applied only when its record was there, or not, would be skipped
 * by the shards that read the whole history and applied by one that reads
 * only the last change.) A writer tells a lost race by reading back.
 */
export async function applyClientState(conn: DuckDBConnection, change: ClientStateChange): Promise<void> {
  switch (change.kind) {
    case 'api-client': {
      const v = change.value;
      if (!v) return runScript(conn, 'queries/client-state/delete-api-client', { client_id: change.id });
      return runScript(conn, 'queries/client-state/put-api-client', {
        client_id: change.id,
        name: v.name,
        secret_hash: v.secret_hash,
        token_generation: v.token_generation,
        created_at: dbFromIso(v.created_at),
        updated_at: dbFromIso(v.updated_at),
      });
    }
    case 'bucket-definition': {
      const v = change.value;
      if (!v) return runScript(conn, 'queries/client-state/delete-bucket-definition', { bucket_id: change.id });
      return runScript(conn, 'queries/client-state/put-bucket-definition', {
        bucket_id: change.id,
        client_id: v.client_id,
        name: v.body.name,
        categorisation_model: v.body.categorisation_model,
        body: JSON.stringify(v.body),
        created_at: dbFromIso(v.created_at),
        updated_at: dbFromIso(v.updated_at),
        rows: JSON.stringify(criterionRows(v.body).map((row, position) => ({ position, ...row }))),
      });
    }
    case 'webhook-subscription': {
      const v = change.value;
      if (!v) return runScript(conn, 'queries/client-state/delete-webhook-subscription', { subscription_id: change.id });
      return runScript(conn, 'queries/client-state/put-webhook-subscription', {
        subscription_id: change.id,
        client_id: v.client_id,
        url: v.url,
        events: listValue(v.events),
        headers: JSON.stringify(v.headers),
        secret: v.secret,
        active: v.active,
        created_at: dbFromIso(v.created_at),
        updated_at: dbFromIso(v.updated_at),
      });
    }
  }
}

interface OffsetRow {
  kafka_partition: number;
  next_offset: string;
}

const OFFSET_COLUMNS: Columns<OffsetRow> = { kafka_partition: 'number', next_offset: 'text' };

/** partition -> next offset to apply, as stored. */
export async function storedClientStateOffsets(store: Store, topic: string): Promise<Map<number, bigint>> {
  const rows = await store.read((conn) => queryFile<OffsetRow>(conn, 'queries/client-state/stored-offsets', { topic }, OFFSET_COLUMNS));
  return new Map(rows.map((r) => [r.kafka_partition, BigInt(r.next_offset)]));
}

export async function saveClientStateOffset(conn: DuckDBConnection, topic: string, partition: number, nextOffset: bigint): Promise<void> {
  await queryFile(conn, 'queries/client-state/save-offset', { topic, kafka_partition: partition, next_offset: nextOffset.toString(), now: dbTime() });
}
