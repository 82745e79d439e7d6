import type { IngestEvent } from '../domain/events.js';
import { dbFromIso } from '../domain/timestamps.js';

export type Cell = string | number | boolean | null | undefined;

export type TransactionEvent = Extract<IngestEvent, { type: 'transaction.upserted' | 'transaction.deleted' }>;

export const ts = (iso: string | null | undefined): string | null => (iso ? dbFromIso(iso) : null);
const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/**
 * A transaction event's row of stage_transactions, in its column order, as
 * the schema path stages it (the fast path stages the same row; a test holds
 * the two equal).
 */
export function transactionCells(seq: number, e: TransactionEvent): Cell[] {
  const head = [seq, e.type === 'transaction.upserted' ? 'upsert' : 'delete', e.event_id, ts(e.occurred_at), e.client_id, e.customer_id, e.data.transaction_id];
  if (e.type === 'transaction.deleted') return [...head, ...new Array<Cell>(22).fill(null)];
  const t = e.data;
  const cats = t.enrichments.categories;
  return [
    ...head, t.account_id, t.provider, t.description, t.credit_debit_indicator, t.amount.value, t.amount.currency,
    ts(t.date_time), t.status, cats.l1.slug, cats.l1.confidence, cats.l2.slug, cats.l2.confidence,
    json(t.enrichments.regularity), json(t.enrichments.merchant), JSON.stringify(t.tags),
    ts(t.posted_date_time), ts(t.value_date_time), t.merchant_category_code, t.counterparty?.name,
    t.counterparty?.identifier, t.running_balance?.value, t.running_balance?.currency,
  ];
}
