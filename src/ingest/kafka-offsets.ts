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

/** Call inside the batch's transaction. */
export async function saveOffset(conn: DuckDBConnection, topic: string, partition: number, nextOffset: bigint): Promise<void> {
  await runScript(conn, 'queries/kafka/save-offset', { topic, kafka_partition: partition, next_offset: nextOffset });
}
