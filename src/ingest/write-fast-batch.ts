import type { DuckDBConnection } from '@duckdb/node-api';
import { runScript } from '../db/script.js';
import { fastCustomers, takeFast } from './fast-path.js';
import { prepareItems } from './prepare.js';
import type { BatchResult, PreparedItem, RawItem } from './types.js';
import { writeBatch, writeEntries } from './write-batch.js';

/** What parseFast made of a batch beside the writer: how many rows it staged, and the rest (by position) validated by the schema. */
export interface ParsedBatch {
  /** Its number in the scratch table. */
  batch: number;
  staged: number;
  slow: number[];
  /** The items at `slow`, validated by the schema (prepareItems), in that order. */
  prepared: PreparedItem[];
}

/**
 * Writes a batch of raw items inside the caller's transaction, as writeBatch
 * does with the same items validated: DuckDB has parsed and checked them
 * beside the writer (fast-path.ts, `parsed`), and only the items it left go
 * through the event schema in JavaScript. A batch that holds a customer
 * deletion is written by writeBatch, all of it validated by the schema: the
 * deletion splits it. `taken` is called once the parsed rows are in the
 * writer's stage, so that their copy in the scratch table can go.
 */
export async function writeFastBatch(conn: DuckDBConnection, items: readonly RawItem[], parsed: ParsedBatch, taken: () => void): Promise<BatchResult> {
  const { batch, staged, slow, prepared } = parsed;
  if (staged > 0) await takeFast(conn, batch);
  taken();
  if (prepared.some((p) => p.kind === 'event' && p.event.type === 'customer.deleted')) {
    await runScript(conn, 'queries/ingest/fast-undo');
    const all: (PreparedItem | undefined)[] = new Array<PreparedItem | undefined>(items.length);
    slow.forEach((seq, i) => (all[seq] = prepared[i]));
    const rest = prepareItems(items.filter((_, seq) => all[seq] === undefined));
    let next = 0;
    return writeBatch(conn, all.map((p) => p ?? (rest[next++] as PreparedItem)));
  }
  const customers = staged > 0 ? await fastCustomers(conn) : [];
  const entries = slow.map((seq, i) => ({ seq, item: prepared[i] as PreparedItem }));
  return writeEntries(conn, items.length, entries, { staged, customers, items });
}
