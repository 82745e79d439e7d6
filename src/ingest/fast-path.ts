import { INTEGER, LIST, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { queryRows, type Columns } from '../db/rows.js';
import { queryFile, runScript, statements } from '../db/script.js';
import { sqlFile } from '../db/sql-files.js';
import { stageFastRows } from './stage.js';
import type { FastCustomer } from './fast-customers.js';
import type { FoundRows } from './fast-rows.js';

/**
 * The fast path of a batch: each plain transaction event that the
 * hand-written check finds certainly valid is staged into
 * stage_transactions by SQL from one text per row (fast-rows.ts), found on
 * a worker thread while the batch before is written; JavaScript's schema
 * sees only the rest. The event schema stays the definition of a valid
 * event: a test runs both on generated and mutated lines and requires that
 * every row the fast path takes is one the schema takes, staged with the
 * same values.
 */

/**
 * Stages a batch's fast rows (see fast-rows.ts) into stage_transactions, and
 * returns how many texts held them: not how many rows (a text holds many).
 */
export async function stageFast(conn: DuckDBConnection, { rows, spans }: Pick<FoundRows, 'rows' | 'spans'>): Promise<number> {
  if (rows.length === 0) return 0;
  await runScript(conn, 'queries/ingest/fast-rows-create');
  await stageFastRows(conn, rows, spans);
  await runScript(conn, 'queries/ingest/fast-rows');
  return rows.length;
}

const FAST_CUSTOMER_COLUMNS: Columns<FastCustomer> = {
  client_id: 'text', customer_id: 'text', events: 'number', first_seq: 'number', first_secret: 'text', secrets: 'list',
};

/** The fast rows' customers as SQL finds them from the stage, minding each customer's deletion (see fast-customers.ts). */
export async function fastCustomers(conn: DuckDBConnection): Promise<FastCustomer[]> {
  return queryFile<FastCustomer>(conn, 'queries/ingest/fast-customers', {}, FAST_CUSTOMER_COLUMNS);
}

/** A secret that does not match its customer's, on the customer's rows after `afterSeq`. */
export interface SecretMismatch {
  clientId: string;
  customerId: string;
  secret: string;
  afterSeq: number;
}

export interface SettledRow {
  seq: number;
  op: string;
  client_id: string;
  customer_id: string;
  dead: boolean;
}

const SETTLED_COLUMNS: Columns<SettledRow> = { seq: 'number', op: 'text', client_id: 'text', customer_id: 'text', dead: 'boolean' };

const SETTLE_TYPES = { client_ids: LIST(VARCHAR), customer_ids: LIST(VARCHAR), secrets: LIST(VARCHAR), after_seqs: LIST(INTEGER) };

/** Removes the fast rows that do not go in (fast-settle.sql) and returns them. */
export async function settleFast(conn: DuckDBConnection, mismatches: readonly SecretMismatch[]): Promise<SettledRow[]> {
  const params = {
    client_ids: listValue(mismatches.map((m) => m.clientId)),
    customer_ids: listValue(mismatches.map((m) => m.customerId)),
    secrets: listValue(mismatches.map((m) => m.secret)),
    after_seqs: listValue(mismatches.map((m) => m.afterSeq)),
  };
  const [judge, remove, read] = statements(sqlFile('queries/ingest/fast-settle')) as [string, string, string];
  // Typed: with no mismatch at all (a customer's deletion alone to settle), an empty list has no type DuckDB can infer.
  await conn.run(judge, params, SETTLE_TYPES);
  await conn.run(remove);
  return queryRows<SettledRow>(conn, read, undefined, SETTLED_COLUMNS, 'fast-settle');
}
