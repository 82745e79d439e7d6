import type { DuckDBConnection } from '@duckdb/node-api';
import type { Store } from '../db/store.js';
import { queryFile, runScript } from '../db/script.js';

/** The DuckDB side of exactly-once: partition positions live next to the rows they describe. */

export const partitionKey = (topic: string, partition: number): string => `${topic}#${partition}`;

/** Next offset to read per partition, as committed with the rows. */
export async function loadStoredOffsets(store: Store): Promise<Map<string, bigint>> {
  const rows = await store.read((conn) =>
    queryFile<{ topic: string; kafka_partition: number; next_offset: string }>(conn, 'queries/kafka/stored-offsets', {}, {
      topic: 'text',
      kafka_partition: 'number',
      next_offset: 'text',
    }),
  );
  return new Map(rows.map((r) => [partitionKey(r.topic, r.kafka_partition), BigInt(r.next_offset)]));
}

export interface PartitionOffset {
  topic: string;
  partition: number;
  nextOffset: bigint;
}

/** Call inside the batch's transaction. One statement for every partition: a statement costs about 2 ms, whatever it holds. */
export async function saveOffsets(conn: DuckDBConnection, offsets: readonly PartitionOffset[]): Promise<void> {
  if (offsets.length === 0) return;
  const json = JSON.stringify(offsets.map((o) => ({ topic: o.topic, kafka_partition: o.partition, next_offset: String(o.nextOffset) })));
  await runScript(conn, 'queries/kafka/save-offsets', { offsets: json });
}

/** The messages at `offset` or after, of messages in ascending offsets: nearly always all of them, seen from the first. */
export function fromOffset<M extends { offset: string }>(messages: readonly M[], offset: bigint): readonly M[] {
  const first = messages[0];
  if (first === undefined || BigInt(first.offset) >= offset) return messages;
  return messages.filter((m) => BigInt(m.offset) >= offset);
}
