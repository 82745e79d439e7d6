import type { DuckDBConnection } from '@duckdb/node-api';
import { fastCustomers, stageFast } from './fast-path.js';
import { prepareItems } from './prepare.js';
import type { FoundRows } from './fast-rows.js';
import type { BatchResult, PreparedItem, RawItem } from './types.js';
import { writeBatch, writeEntries } from './write-batch.js';

/**
 * Writes a batch of raw items inside the caller's transaction, as writeBatch
 * does with the same items validated: the fast rows found for it (`found`,
 * see fast-rows.ts) are staged in bulk (fast-path.ts), and only the other
 * items go through the event schema. A batch that holds a customer deletion
 * is written by writeBatch, all of it validated by the schema: the deletion
 * splits it.
 */
export async function writeFastBatch(
  conn: DuckDBConnection,
  items: readonly RawItem[],
  found: FoundRows,
  /** The other items, validated already by the caller (a shard refusing another's customers); else validated here. */
  slow?: readonly PreparedItem[],
): Promise<BatchResult> {
  const prepared = slow ?? prepareItems(found.slow.map((seq) => items[seq] as RawItem));
  if (prepared.some((p) => p.kind === 'event' && p.event.type === 'customer.deleted')) {
    // Every slot filled (Array.from, not new Array: map skips a sparse array's holes, and so left the fast rows out).
    const all: (PreparedItem | undefined)[] = Array.from({ length: items.length }, () => undefined);
    found.slow.forEach((seq, i) => (all[seq] = prepared[i]));
    const rest = prepareItems(items.filter((_, seq) => all[seq] === undefined));
    let next = 0;
    return writeBatch(conn, all.map((p) => p ?? (rest[next++] as PreparedItem)));
  }
  // Texts, each holding many rows: the rows staged are every item the schema need not see.
  const texts = await stageFast(conn, found);
  const staged = texts === 0 ? 0 : items.length - found.slow.length;
  // Tallied as the rows were found, or else asked of SQL.
  const tallied = staged > 0 && found.customers !== undefined;
  const customers = staged === 0 ? [] : (found.customers ?? (await fastCustomers(conn)));
  const entries = found.slow.map((seq, i) => ({ seq, item: prepared[i] as PreparedItem }));
  return writeEntries(conn, items.length, entries, { staged, customers, items, tallied });
}
