import { DuckDBDataChunk, DuckDBTypeId, JSToDuckDBValueConverter, type DuckDBAppender, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import type { IngestEvent } from '../domain/events.js';
import { transactionCells, ts, type Cell, type TransactionEvent } from './transaction-cells.js';
import { redactDeadLetter } from '../domain/redact.js';
import { dedupeKey } from './prepare.js';
import type { DeadLetterRecord } from './types.js';
import type { RowSpan } from './fast-rows.js';

/**
 * Rows for one stage table, gathered by column and handed to DuckDB a whole
 * data chunk (2,048 rows) at a time: one call per column per chunk, and no
 * array per row. Text and INTEGER columns go in as they are; other types
 * (BIGINT offsets, booleans) through the library's converter.
 */
class StageRows {
  private readonly types: DuckDBType[];
  private readonly plain: boolean[];
  private columns: Cell[][];
  private count = 0;

  constructor(private readonly appender: DuckDBAppender) {
    this.types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
    this.plain = this.types.map((t) => t.typeId === DuckDBTypeId.VARCHAR || t.typeId === DuckDBTypeId.INTEGER);
    this.columns = this.types.map(() => []);
  }

  static async open(conn: DuckDBConnection, table: string): Promise<StageRows> {
    return new StageRows(await conn.createAppender(table, 'main', 'temp'));
  }

  add(cells: readonly Cell[]): void {
    for (let i = 0; i < this.columns.length; i++) (this.columns[i] as Cell[]).push(cells[i] ?? null);
    if (++this.count === CHUNK_ROWS) this.flushChunk();
  }

  private flushChunk(): void {
    if (this.count === 0) return;
    const chunk = DuckDBDataChunk.create(this.types, this.count);
    this.columns.forEach((values, i) => {
      const cells = values as (string | number | boolean | null)[];
      if (this.plain[i]) chunk.setColumnValues(i, cells);
      else chunk.setColumnValuesConverted(i, cells, JSToDuckDBValueConverter);
    });
    this.appender.appendDataChunk(chunk);
    this.columns = this.types.map(() => []);
    this.count = 0;
  }

  close(): void {
    this.flushChunk();
    this.appender.flushSync();
    this.appender.closeSync();
  }
}

/** Rows per data chunk: DuckDB's vector size. */
const CHUNK_ROWS = 2048;

type AccountEvent = Extract<IngestEvent, { type: 'account.upserted' }>;
type ApplicationEvent = Extract<IngestEvent, { type: 'application.upserted' }>;

export interface StagedCustomer {
  customerId: string;
  clientId: string;
  hosted: boolean;
  secretHash: string | null;
}

/** The kinds of rows a batch stages, so that only their tables are opened and cleared. */
export type StageKind = 'transaction' | 'account' | 'application';

/** A stage table's rows that were never opened, for a kind the batch does not hold: staging one is a bug. */
const NONE = {
  add(): void {
    throw new Error('staged a kind the batch was opened without');
  },
  close(): void {},
};

/** Bulk-loads one segment of a batch into the temp stage tables through Appenders. */
export class Stager {
  /** Rows staged per kind, so that a segment runs only the SQL steps it needs. */
  readonly staged = { transaction: 0, account: 0, application: 0 };

  private constructor(
    private readonly tx: Pick<StageRows, 'add' | 'close'>,
    private readonly accounts: Pick<StageRows, 'add' | 'close'>,
    private readonly balances: Pick<StageRows, 'add' | 'close'>,
    private readonly applications: Pick<StageRows, 'add' | 'close'>,
  ) {}

  /** Opens the stage tables of the given kinds only: an Appender costs a round trip even when nothing is appended. */
  static async open(conn: DuckDBConnection, kinds: ReadonlySet<StageKind>): Promise<Stager> {
    const open = async (kind: StageKind, table: string) => (kinds.has(kind) ? StageRows.open(conn, table) : NONE);
    return new Stager(
      await open('transaction', 'stage_transactions'),
      await open('account', 'stage_accounts'),
      await open('account', 'stage_balances'),
      await open('application', 'stage_applications'),
    );
  }

  transaction(seq: number, e: TransactionEvent): void {
    this.staged.transaction++;
    this.tx.add(transactionCells(seq, e));
  }

  account(seq: number, e: AccountEvent): void {
    this.staged.account++;
    const a = e.data;
    this.accounts.add([
      seq, e.event_id, ts(e.occurred_at), e.client_id, e.customer_id, a.account_id, a.currency, a.holder.name, a.holder.relationship,
      a.account_name, a.account_type, a.usage_type, a.provider, a.identifiers.uk_account_number, a.identifiers.uk_sort_code,
    ]);
    a.balances.forEach((b, position) => {
      this.balances.add([e.event_id, position, ts(b.date), b.amount.value, b.amount.currency, b.type, b.credit_debit_indicator]);
    });
  }

  application(seq: number, e: ApplicationEvent): void {
    this.staged.application++;
    const body = { ...e.data, customer_id: e.customer_id };
    this.applications.add([seq, e.event_id, ts(e.occurred_at), e.client_id, e.customer_id, e.data.application_id, JSON.stringify(body)]);
  }

  close(): void {
    for (const rows of [this.tx, this.accounts, this.balances, this.applications]) rows.close();
  }
}

export async function stageCustomers(conn: DuckDBConnection, customers: readonly StagedCustomer[]): Promise<void> {
  if (customers.length === 0) return;
  const rows = await StageRows.open(conn, 'stage_customers');
  for (const c of customers) rows.add([c.customerId, c.clientId, c.hosted, c.secretHash]);
  rows.close();
}

export async function stageDeadLetters(conn: DuckDBConnection, letters: readonly DeadLetterRecord[]): Promise<void> {
  if (letters.length === 0) return;
  const rows = await StageRows.open(conn, 'stage_dead_letters');
  for (const d of letters) {
    // Kept without its secrets; the dedupe key still comes from the text as read.
    const kept = redactDeadLetter(d.raw, d.reason);
    rows.add([
      d.ref.source, d.ref.sourceRef, d.ref.lineNumber, d.ref.partition, d.ref.offset, d.ref.key, kept.raw, kept.reason, dedupeKey(d.ref, d.raw),
    ]);
  }
  rows.close();
}

/** Appends the texts of a batch's fast rows (see fast-rows.ts) to the temp table fast_rows, one text a row, each with its span if it has one. */
export async function stageFastRows(conn: DuckDBConnection, rows: readonly string[], spans?: readonly RowSpan[]): Promise<void> {
  const table = await StageRows.open(conn, 'fast_rows');
  rows.forEach((row, i) => {
    const span = spans?.[i];
    table.add(span ? [row, span.shift, span.from, span.to] : [row]);
  });
  table.close();
}
