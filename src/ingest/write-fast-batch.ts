import type { DuckDBConnection } from '@duckdb/node-api';
import { runScript } from '../db/script.js';
import { fastCustomers, parseFast } from './fast-path.js';
import { prepareItems } from './prepare.js';
import type { BatchResult, PreparedItem, RawItem } from './types.js';
import { writeBatch, writeEntries } from './write-batch.js';

/**
 * Writes a batch of raw items inside the caller's transaction, as writeBatch
 * does with the same items validated: DuckDB parses and checks them first
 * (fast-path.ts), and only the items it leaves go through the event schema
 * in JavaScript. A batch that holds a customer deletion is written by
 * writeBatch, all of it validated by the schema: the deletion splits it.
 */
export async function writeFastBatch(conn: DuckDBConnection, items: readonly RawItem[]): Promise<BatchResult> {
  const { staged, slow } = await parseFast(conn, items);
  const prepared = prepareItems(slow.map((seq) => items[seq] as RawItem));
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
