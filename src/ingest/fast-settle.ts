import type { DuckDBConnection } from '@duckdb/node-api';
import { customerKey } from '../domain/customer-ref.js';
import type { EventType } from '../domain/events.js';
import type { FastCustomer } from './fast-customers.js';
import { settleFast, type SecretMismatch } from './fast-path.js';
import type { DeadLetterRecord, RawItem } from './types.js';

/**
 * The rows the fast path staged (fast-path.ts), by customer, with the raw
 * items of the batch: they are judged against their customers here, by
 * customer and secret rather than one by one.
 */
export interface FastRows {
  /** How many rows were staged (not texts): the settle subtracts the rows it removes. */
  staged: number;
  customers: readonly FastCustomer[];
  /** The customers were tallied as the rows were found (fast-customers.ts), every row counted as newer than any deletion. */
  tallied?: boolean;
  items: readonly RawItem[];
}

/** What write-batch knows of the batch's customers once its other events are judged. */
export interface SettleContext {
  known: ReadonlyMap<string, { secretHash: string | null }>;
  tombstones: ReadonlyMap<string, unknown>;
  /** Where each customer new to the store was created in the batch. */
  createdAt: ReadonlyMap<string, number>;
  secretMatches: (secret: string, stored: string) => boolean;
  touched: Map<string, { clientId: string; customerId: string }>;
  dead: { seq: number; letter: DeadLetterRecord }[];
  /** Counts an event that changes nothing. */
  skip: (type: EventType) => void;
  /** The reason of a dead letter whose secret does not match. */
  reason: string;
}

/**
 * Judges the fast rows against their customers, as write-batch judges an
 * event, by customer and secret: a secret that does not match the
 * customer's (from its creation on) is a dead letter, and a row no newer
 * than the customer's deletion changes nothing. Returns how many rows left
 * the stage. SQL does the work only when there is something to find.
 */
export async function settleFastRows(conn: DuckDBConnection, fast: FastRows, ctx: SettleContext): Promise<number> {
  const mismatches: SecretMismatch[] = [];
  let tombstoned = false;
  for (const c of fast.customers) {
    const key = customerKey(c.client_id, c.customer_id);
    if (ctx.tombstones.has(key)) tombstoned = true;
    const known = ctx.known.get(key);
    if (!known) continue;
    // A hosted customer (no secret) matches no secret: a secret on its events would be ignored.
    for (const secret of c.secrets) {
      if (known.secretHash === null || !ctx.secretMatches(secret, known.secretHash)) {
        mismatches.push({ clientId: c.client_id, customerId: c.customer_id, secret, afterSeq: ctx.createdAt.get(key) ?? -1 });
      }
    }
  }
  const settled = mismatches.length > 0 || tombstoned ? await settleFast(conn, mismatches) : [];
  const removed = new Map<string, number>();
  for (const row of settled) {
    const key = customerKey(row.client_id, row.customer_id);
    removed.set(key, (removed.get(key) ?? 0) + 1);
    const item = fast.items[row.seq] as RawItem;
    if (row.dead) ctx.dead.push({ seq: row.seq, letter: { raw: item.raw, reason: ctx.reason, ref: item.ref } });
    else ctx.skip(row.op === 'upsert' ? 'transaction.upserted' : 'transaction.deleted');
  }
  for (const c of fast.customers) {
    const key = customerKey(c.client_id, c.customer_id);
    if (c.events > (removed.get(key) ?? 0) && !ctx.touched.has(key)) ctx.touched.set(key, { clientId: c.client_id, customerId: c.customer_id });
  }
  return settled.length;
}
