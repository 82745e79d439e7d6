import type { RawItem } from '../../src/ingest/types.js';

let line = 0;
/** Any event, as a raw item of a file, numbered in the order made. */
export const item = (event: Record<string, unknown>): RawItem => ({ raw: JSON.stringify(event), ref: { source: 'file', sourceRef: 'test', lineNumber: ++line } });

/** An income transaction of client-a's `customer` on account acc-1, dated the 2nd of `month` (April 2024 unless given), as of `occurred`. */
export const upsertItem = (o: { eventId: string; customer: string; tx: string; amount: string; occurred: string; month?: string; category?: string }): RawItem =>
  item({
    event_id: o.eventId, type: 'transaction.upserted', occurred_at: o.occurred, client_id: 'client-a', customer_id: o.customer,
    data: {
      transaction_id: o.tx, account_id: 'acc-1', credit_debit_indicator: 'credit', amount: { value: o.amount, currency: 'GBP' },
      date_time: `${o.month ?? '2024-04'}-02T09:00:00Z`, enrichments: { categories: { l1: { slug: 'income' }, l2: { slug: o.category ?? 'salary' } } },
    },
  });

/** The deletion of client-a's `customer`'s transaction `tx`, as of `occurred`. */
export const deleteItem = (o: { eventId: string; customer: string; tx: string; occurred: string }): RawItem =>
  item({ event_id: o.eventId, type: 'transaction.deleted', occurred_at: o.occurred, client_id: 'client-a', customer_id: o.customer, data: { transaction_id: o.tx } });
