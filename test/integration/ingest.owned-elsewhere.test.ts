import { afterEach, describe, expect, it } from 'vitest';
import { FOREIGN_CUSTOMER_REASON } from '../../src/ingest/pipeline.js';
import { rows, tempStore } from '../helpers/store.js';
import { transactionData } from '../helpers/webhooks.js';

const CLIENT = 'client-s';
let n = 0;
const upsert = (customer: string) => ({
  event_id: `ev-${++n}`, type: 'transaction.upserted', occurred_at: '2024-03-10T10:00:00Z', client_id: CLIENT, customer_id: customer, data: transactionData(`tx-${n}`),
});
const account = (customer: string) => ({
  event_id: `ev-${++n}`, type: 'account.upserted', occurred_at: '2024-03-10T10:00:00Z', client_id: CLIENT, customer_id: customer,
  data: { account_id: `acc-${n}`, currency: 'GBP', holder: { name: 'Sam', relationship: 'account_holder' }, account_name: 'Current', account_type: 'current', usage_type: 'personal', provider: 'Monzo', identifiers: {}, balances: [] },
});
const items = (events: readonly object[]) => events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'kafka' as const, sourceRef: 't/0', lineNumber: i + 1 } }));

describe('a shard given events of customers another shard owns', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function shard() {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    // This shard owns every customer but those named elsewhere-*.
    ctx.pipeline.ownedElsewhere(async (ids) => ids.filter((id) => id.startsWith('elsewhere-')));
    const stored = async () => rows<{ customer_id: string; n: number }>(ctx.store, 'SELECT customer_id, count(*)::INTEGER AS n FROM transactions GROUP BY ALL ORDER BY 1');
    return { ctx, stored };
  }

  it('makes each of their events a dead letter saying why, in a small batch and on the fast path, and stores the rest', async () => {
    for (const size of [10, 2500]) {
      const { ctx, stored } = await shard();
      const events = Array.from({ length: size }, (_, i) => upsert(i % 97 === 5 ? 'elsewhere-1' : 'cust-here'));
      const foreign = events.filter((e) => e.customer_id === 'elsewhere-1').length;
      const result = await ctx.pipeline.ingest(items(events));
      expect({ size, dead: result.deadLetters.length, reasons: [...new Set(result.deadLetters.map((d) => d.reason))] }).toEqual({ size, dead: foreign, reasons: [FOREIGN_CUSTOMER_REASON] });
      expect(await stored()).toEqual([{ customer_id: 'cust-here', n: size - foreign }]);
      expect(await rows(ctx.store, "SELECT count(*)::INTEGER AS n FROM customers WHERE customer_id = 'elsewhere-1'")).toEqual([{ n: 0 }]);
    }
  });

  it('refuses them among the events the fast path leaves to the schema, and still stages its own rows fast', async () => {
    const { ctx, stored } = await shard();
    const events = [...Array.from({ length: 2500 }, () => upsert('cust-here')), account('elsewhere-2'), account('cust-here')];
    const result = await ctx.pipeline.ingest(items(events));
    expect(result.deadLetters.map((d) => [d.ref.lineNumber, d.reason])).toEqual([[2501, FOREIGN_CUSTOMER_REASON]]);
    expect(await stored()).toEqual([{ customer_id: 'cust-here', n: 2500 }]);
    expect(await rows(ctx.store, 'SELECT customer_id FROM accounts ORDER BY 1')).toEqual([{ customer_id: 'cust-here' }]);
  });
});
