import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rows, tempStore } from '../helpers/store.js';
import { deleteItem, item, upsertItem } from '../helpers/transaction-events.js';
import type { RawItem } from '../../src/ingest/types.js';

let ctx: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  ctx = await tempStore();
});
afterEach(async () => {
  await ctx.cleanup();
});

// Two instants in one millisecond, 0.8 ms apart. Each older version below has the higher event id, which decided
// between the two when both were cut to the millisecond (.123), so the older won.
const NEWER = '2024-05-01T12:00:00.1239Z';
const OLDER = '2024-05-01T12:00:00.1231Z';

const stored = (customer: string) =>
  rows<{ amount: string; event_id: string; occurred: string }>(
    ctx.store,
    `SELECT amount::VARCHAR AS amount, event_id, strftime(occurred_at, '%H:%M:%S.%f') AS occurred FROM transactions WHERE customer_id = '${customer}' ORDER BY ALL`,
  );
const total = async (customer: string) =>
  (await rows<{ total: string }>(ctx.store, `SELECT total::VARCHAR AS total FROM monthly_category_totals WHERE customer_id = '${customer}'`))[0]?.total;

/** Distinct transactions of another customer, enough to send a batch through the fast path (2,000 events or more). */
const filler = (n: number): RawItem[] =>
  Array.from({ length: n }, (_, i) => upsertItem({ eventId: `ev-fill-${i}`, customer: 'cust-fill', tx: `tx-fill-${i}`, amount: '1.00', occurred: '2024-05-01T00:00:00Z' }));

describe('versions a fraction of a millisecond apart', () => {
  it('keep the newer, in either order, in one batch or two, on either path', async () => {
    for (const [customer, order, together, fast] of [
      ['cust-1', 'newer first', true, false],
      ['cust-2', 'older first', true, false],
      ['cust-3', 'newer first', false, false],
      ['cust-4', 'older first', false, false],
      ['cust-5', 'older first', true, true],
      ['cust-6', 'newer first', true, true],
    ] as const) {
      const newer = upsertItem({ eventId: 'ev-a', customer, tx: 'tx-1', amount: '200.00', occurred: NEWER });
      const older = upsertItem({ eventId: 'ev-b', customer, tx: 'tx-1', amount: '100.00', occurred: OLDER });
      const sent = order === 'newer first' ? [newer, older] : [older, newer];
      const batches = together ? [sent] : sent.map((one) => [one]);
      for (const batch of batches) await ctx.pipeline.ingest(fast ? [...batch, ...filler(2_100)] : batch);
      const what = `${customer}: ${order}, ${together ? 'one batch' : 'two batches'}${fast ? ', fast path' : ''}`;
      // Kept to the microsecond, as the store's TIMESTAMP holds it.
      expect(await stored(customer), what).toEqual([{ amount: '200.00', event_id: 'ev-a', occurred: '12:00:00.123900' }]);
      expect(await total(customer), what).toBe('200.00');
    }
  });

  it('keep a deletion that is newer, and an upsert newer than a deletion, by the transaction or by its customer', async () => {
    // The deletion 0.8 ms after the upsert, with the lower event id: the transaction goes.
    await ctx.pipeline.ingest([upsertItem({ eventId: 'ev-z', customer: 'cust-d', tx: 'tx-1', amount: '5.00', occurred: OLDER })]);
    await ctx.pipeline.ingest([deleteItem({ eventId: 'ev-a', customer: 'cust-d', tx: 'tx-1', occurred: NEWER })]);
    expect(await stored('cust-d')).toEqual([]);
    // The upsert 0.8 ms after the transaction's deletion: it comes back.
    await ctx.pipeline.ingest([deleteItem({ eventId: 'ev-z', customer: 'cust-e', tx: 'tx-1', occurred: OLDER })]);
    await ctx.pipeline.ingest([upsertItem({ eventId: 'ev-a', customer: 'cust-e', tx: 'tx-1', amount: '6.00', occurred: NEWER })]);
    expect(await stored('cust-e')).toEqual([{ amount: '6.00', event_id: 'ev-a', occurred: '12:00:00.123900' }]);
    // An upsert 0.8 ms after its customer's deletion, in the same batch and in the next: it is kept.
    const deleted = (customer: string) => item({ event_id: 'ev-z', type: 'customer.deleted', occurred_at: OLDER, client_id: 'client-a', customer_id: customer, data: {} });
    await ctx.pipeline.ingest([deleted('cust-f'), upsertItem({ eventId: 'ev-a', customer: 'cust-f', tx: 'tx-1', amount: '7.00', occurred: NEWER })]);
    await ctx.pipeline.ingest([deleted('cust-g')]);
    await ctx.pipeline.ingest([upsertItem({ eventId: 'ev-a', customer: 'cust-g', tx: 'tx-1', amount: '8.00', occurred: NEWER })]);
    expect(await stored('cust-f')).toEqual([{ amount: '7.00', event_id: 'ev-a', occurred: '12:00:00.123900' }]);
    expect(await stored('cust-g')).toEqual([{ amount: '8.00', event_id: 'ev-a', occurred: '12:00:00.123900' }]);
  });
});
