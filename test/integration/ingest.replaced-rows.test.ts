import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rows, tempStore } from '../helpers/store.js';
import { deleteItem, item, upsertItem } from '../helpers/transaction-events.js';

let ctx: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  ctx = await tempStore();
});
afterEach(async () => {
  await ctx.cleanup();
});

const upsert = (eventId: string, customer: string, tx: string, amount: string, occurred: string) => upsertItem({ eventId, customer, tx, amount, occurred });
const remove = (eventId: string, customer: string, tx: string, occurred: string) => deleteItem({ eventId, customer, tx, occurred });

const stored = () => rows(ctx.store, "SELECT customer_id, transaction_id, amount::VARCHAR AS amount, event_id FROM transactions ORDER BY ALL");
const totals = () => rows(ctx.store, "SELECT customer_id, total::VARCHAR AS total, transaction_count FROM monthly_category_totals ORDER BY ALL");

describe('a newer version replaces the stored row it was judged against, wherever that row is', () => {
  it('replaces a row written earlier in the same batch, before a customer deletion split the batch', async () => {
    const result = await ctx.pipeline.ingest([
      upsert('ev-1', 'cust-1', 'tx-1', '10.00', '2024-05-01T00:00:00Z'),
      upsert('ev-2', 'cust-2', 'tx-9', '1.00', '2024-05-01T00:00:00Z'),
      item({ event_id: 'ev-3', type: 'customer.deleted', occurred_at: '2024-05-02T00:00:00Z', client_id: 'client-a', customer_id: 'cust-2', data: {} }),
      upsert('ev-4', 'cust-1', 'tx-1', '12.50', '2024-05-03T00:00:00Z'),
      upsert('ev-5', 'cust-1', 'tx-2', '4.00', '2024-05-03T00:00:00Z'),
    ]);
    expect(result.deadLetters).toEqual([]);
    expect(await stored()).toEqual([
      { customer_id: 'cust-1', transaction_id: 'tx-1', amount: '12.50', event_id: 'ev-4' },
      { customer_id: 'cust-1', transaction_id: 'tx-2', amount: '4.00', event_id: 'ev-5' },
    ]);
    expect(await totals()).toEqual([{ customer_id: 'cust-1', total: '16.50', transaction_count: 2 }]);
  });

  it('replaces the right row after a checkpoint has moved the rows that a deletion left', async () => {
    await ctx.pipeline.ingest(['tx-1', 'tx-2', 'tx-3', 'tx-4'].map((tx, i) => upsert(`ev-${i}`, 'cust-1', tx, `${i + 1}.00`, '2024-05-01T00:00:00Z')));
    await ctx.pipeline.ingest([remove('ev-d1', 'cust-1', 'tx-1', '2024-05-02T00:00:00Z'), remove('ev-d2', 'cust-1', 'tx-2', '2024-05-02T00:00:00Z')]);
    await ctx.store.checkpoint();
    await ctx.pipeline.ingest([upsert('ev-n', 'cust-1', 'tx-4', '40.00', '2024-05-03T00:00:00Z')]);
    expect(await stored()).toEqual([
      { customer_id: 'cust-1', transaction_id: 'tx-3', amount: '3.00', event_id: 'ev-2' },
      { customer_id: 'cust-1', transaction_id: 'tx-4', amount: '40.00', event_id: 'ev-n' },
    ]);
    expect(await totals()).toEqual([{ customer_id: 'cust-1', total: '43.00', transaction_count: 2 }]);
  });
});
