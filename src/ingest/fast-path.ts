import { DuckDBDataChunk, INTEGER, listValue, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { CURRENCIES } from '../domain/currencies.js';
import { LIMITS } from '../domain/event-limits.js';
import { OCCURRED_AT_MAX_FUTURE_DAYS } from '../domain/instants.js';
import { UK_V2 } from '../domain/taxonomy.js';
import { dbTime } from '../domain/timestamps.js';
import { queryRows, type Columns } from '../db/rows.js';
import { queryFile, runScript, statements } from '../db/script.js';
import { sqlFile } from '../db/sql-files.js';
import type { RawItem } from './types.js';

/**
 * The fast path of a batch: DuckDB parses and checks the raw events itself
 * (sql/queries/ingest/fast-parse.sql) and stages the plain transaction
 * events it is certain of; JavaScript sees only the rest. The event schema
 * stays the definition of a valid event: a test runs both on generated and
 * mutated lines and requires that every row the SQL takes is one the schema
 * takes, staged with the same values.
 */

/** Rows a data chunk holds: DuckDB's vector size. */
const CHUNK_ROWS = 2048;

const PAIRS = UK_V2.categories.flatMap((c) => c.subcategories.map((s) => `${c.name}/${s.name}`));

/** Appends each item's raw text (those a source has not refused already) with its position in the batch. */
async function stageRawEvents(conn: DuckDBConnection, items: readonly RawItem[]): Promise<void> {
  await runScript(conn, 'queries/ingest/fast-raw');
  const appender = await conn.createAppender('raw_events', 'main', 'temp');
  let seqs: number[] = [];
  let raws: string[] = [];
  const flush = (): void => {
    if (seqs.length === 0) return;
    const chunk = DuckDBDataChunk.create([INTEGER, VARCHAR], seqs.length);
    chunk.setColumnValues(0, seqs);
    chunk.setColumnValues(1, raws);
    appender.appendDataChunk(chunk);
    seqs = [];
    raws = [];
  };
  items.forEach((item, seq) => {
    if (item.refused !== undefined) return;
    seqs.push(seq);
    raws.push(item.raw);
    if (seqs.length === CHUNK_ROWS) flush();
  });
  flush();
  appender.flushSync();
  appender.closeSync();
}

/**
 * Stages the batch's fast rows into stage_transactions and returns the
 * positions of every other item, which go through the schema.
 */
export async function parseFast(conn: DuckDBConnection, items: readonly RawItem[]): Promise<{ staged: number; slow: number[] }> {
  await stageRawEvents(conn, items);
  await runScript(conn, 'queries/ingest/fast-parse', {
    max_bytes: LIMITS.rawBytes,
    max_occurred_at: dbTime(Date.now() + OCCURRED_AT_MAX_FUTURE_DAYS * 86_400_000),
    currencies: listValue([...CURRENCIES]),
    pairs: listValue(PAIRS),
  });
  const rest = await queryFile<{ seq: number }>(conn, 'queries/ingest/fast-rest', {}, { seq: 'number' });
  await runScript(conn, 'queries/ingest/fast-raw-drop');
  const slow = rest.map((r) => r.seq);
  items.forEach((item, seq) => {
    if (item.refused !== undefined) slow.push(seq);
  });
  slow.sort((a, b) => a - b);
  return { staged: items.length - slow.length, slow };
}

export interface FastCustomer {
  client_id: string;
  customer_id: string;
  events: number;
  /** The first row newer than the customer's deletion (every row, without one): the one that would create the customer. */
  first_seq: number | null;
  first_secret: string | null;
  secrets: string[];
}

const FAST_CUSTOMER_COLUMNS: Columns<FastCustomer> = {
  client_id: 'text', customer_id: 'text', events: 'number', first_seq: 'number', first_secret: 'text', secrets: 'list',
};

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

/** Removes the fast rows that do not go in (fast-settle.sql) and returns them. */
export async function settleFast(conn: DuckDBConnection, mismatches: readonly SecretMismatch[]): Promise<SettledRow[]> {
  const params = {
    client_ids: listValue(mismatches.map((m) => m.clientId)),
    customer_ids: listValue(mismatches.map((m) => m.customerId)),
    secrets: listValue(mismatches.map((m) => m.secret)),
    after_seqs: listValue(mismatches.map((m) => m.afterSeq)),
  };
  const [judge, remove, read] = statements(sqlFile('queries/ingest/fast-settle')) as [string, string, string];
  await conn.run(judge, params);
  await conn.run(remove);
  return queryRows<SettledRow>(conn, read, undefined, SETTLED_COLUMNS, 'fast-settle');
}
