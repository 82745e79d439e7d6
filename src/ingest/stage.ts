import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type { IngestEvent } from '../domain/events.js';
import { dbFromIso } from '../db/rows.js';
import { dedupeKey } from './prepare.js';
import type { DeadLetterRecord } from './types.js';

type Cell = string | number | boolean | null | undefined;

function appendRow(appender: DuckDBAppender, cells: readonly Cell[]): void {
  for (const cell of cells) {
    if (cell === null || cell === undefined) appender.appendNull();
    else if (typeof cell === 'boolean') appender.appendBoolean(cell);
    else if (typeof cell === 'number') appender.appendInteger(cell);
    else appender.appendVarchar(cell);
  }
  appender.endRow();
}

const ts = (iso: string | null | undefined): string | null => (iso ? dbFromIso(iso) : null);
const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

type TransactionEvent = Extract<IngestEvent, { type: 'transaction.upserted' | 'transaction.deleted' }>;
type AccountEvent = Extract<IngestEvent, { type: 'account.upserted' }>;
type ApplicationEvent = Extract<IngestEvent, { type: 'application.upserted' }>;

export interface StagedCustomer {
  customerId: string;
  clientId: string;
  hosted: boolean;
  secretHash: string | null;
}

/** Bulk-loads one segment of a batch into the temp stage tables through Appenders. */
export class Stager {
  /** Rows staged per kind, so that a segment runs only the SQL steps it needs. */
  readonly staged = { transaction: 0, account: 0, application: 0 };

  private constructor(
    private readonly tx: DuckDBAppender,
    private readonly accounts: DuckDBAppender,
    private readonly balances: DuckDBAppender,
    private readonly applications: DuckDBAppender,
  ) {}

  static async open(conn: DuckDBConnection): Promise<Stager> {
    const open = (table: string) => conn.createAppender(table, 'main', 'temp');
    return new Stager(await open('stage_transactions'), await open('stage_accounts'), await open('stage_balances'), await open('stage_applications'));
  }

  transaction(seq: number, e: TransactionEvent): void {
    this.staged.transaction++;
    const head = [seq, e.type === 'transaction.upserted' ? 'upsert' : 'delete', e.event_id, ts(e.occurred_at), e.client_id, e.customer_id, e.data.transaction_id];
    if (e.type === 'transaction.deleted') {
      appendRow(this.tx, [...head, ...new Array<Cell>(22).fill(null)]);
      return;
    }
    const t = e.data;
    const cats = t.enrichments.categories;
    appendRow(this.tx, [
      ...head, t.account_id, t.provider, t.description, t.credit_debit_indicator, t.amount.value, t.amount.currency,
      ts(t.date_time), t.status, cats.l1.slug, cats.l1.confidence, cats.l2.slug, cats.l2.confidence,
      json(t.enrichments.regularity), json(t.enrichments.merchant), JSON.stringify(t.tags),
      ts(t.posted_date_time), ts(t.value_date_time), t.merchant_category_code, t.counterparty?.name,
      t.counterparty?.identifier, t.running_balance?.value, t.running_balance?.currency,
    ]);
  }

  account(seq: number, e: AccountEvent): void {
    this.staged.account++;
    const a = e.data;
    appendRow(this.accounts, [
      seq, e.event_id, ts(e.occurred_at), e.client_id, e.customer_id, a.account_id, a.currency, a.holder.name, a.holder.relationship,
      a.account_name, a.account_type, a.usage_type, a.provider, a.identifiers.uk_account_number, a.identifiers.uk_sort_code,
    ]);
    a.balances.forEach((b, position) => {
      appendRow(this.balances, [e.event_id, position, ts(b.date), b.amount.value, b.amount.currency, b.type, b.credit_debit_indicator]);
    });
  }

  application(seq: number, e: ApplicationEvent): void {
    this.staged.application++;
    const body = { ...e.data, customer_id: e.customer_id };
    appendRow(this.applications, [seq, e.event_id, ts(e.occurred_at), e.client_id, e.customer_id, e.data.application_id, JSON.stringify(body)]);
  }

  close(): void {
    for (const a of [this.tx, this.accounts, this.balances, this.applications]) {
      a.flushSync();
      a.closeSync();
    }
  }
}

export async function stageCustomers(conn: DuckDBConnection, customers: readonly StagedCustomer[]): Promise<void> {
  if (customers.length === 0) return;
  const appender = await conn.createAppender('stage_customers', 'main', 'temp');
  for (const c of customers) appendRow(appender, [c.customerId, c.clientId, c.hosted, c.secretHash]);
  appender.flushSync();
  appender.closeSync();
}

export async function stageDeadLetters(conn: DuckDBConnection, letters: readonly DeadLetterRecord[]): Promise<void> {
  if (letters.length === 0) return;
  const appender = await conn.createAppender('stage_dead_letters', 'main', 'temp');
  for (const d of letters) {
    appendRow(appender, [
      d.ref.source, d.ref.sourceRef, d.ref.lineNumber, d.ref.partition, d.ref.offset, d.ref.key, d.raw, d.reason, dedupeKey(d.ref, d.raw),
    ]);
  }
  appender.flushSync();
  appender.closeSync();
}
