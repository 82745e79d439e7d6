import { describe, expect, it } from 'vitest';
import { useCustomerApi, validationBody } from '../helpers/api.js';
import { REFERENCE, expectReferenceShape } from '../helpers/reference-shapes.js';

const OP = 'financial_v2_transactions_get';

describe('GET /financial/v2/transactions, as a client of the reference API uses it', () => {
  const served = useCustomerApi({ fixtures: ['hand-computed.ndjson', 'api-customers.ndjson'] });
  const get = (query: string) => served.api.call('GET', `/financial/v2/transactions${query}`, { headers: served.headers });
  const list = async (query = '') => {
    const res = await get(query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return expectReferenceShape(REFERENCE.transactions, res.body);
  };
  const ids = async (query = '') => (await list(query)).data.map((t) => t.transaction_id);
  const event = (n: number, type: string, data: object) => ({
    raw: JSON.stringify({ event_id: `ref-sync-${n}`, type, occurred_at: `2024-05-0${n}T00:00:00Z`, client_id: 'client-a', customer_id: 'cust-1', data }),
    ref: { source: 'file' as const, sourceRef: 'reference-sync', lineNumber: n },
  });

  it('gives every transaction a suggested_description: the merchant’s name, else the description', async () => {
    const body = await list('?status=booked&status=pending&status=declined');
    expect(body.data.length).toBe(13);
    const byId = new Map(body.data.map((t) => [t.transaction_id, t.suggested_description]));
    expect(byId.get('t22')).toBe('Bet Co');
    expect(byId.get('t21')).toBe('OCADO');
  });

  it('filters by merchant (display name, case aside) instead of ignoring it', async () => {
    expect(await ids('?merchant=bet%20co')).toEqual(['t22']);
    expect(await ids('?merchant=Nobody')).toEqual([]);
  });

  it('refuses include_label_ids with 400: afford keeps no labels, and an ignored filter would return everything', async () => {
    for (const query of ['?include_label_ids=8b6e8d2e-5b7a-4f3e-9a53-1f1f6d0f4a11', '?include_label_ids[]=x']) {
      const res = await get(query);
      expect(res.status).toBe(400);
      const field = query.slice(1).split('=')[0] ?? '';
      expect(res.body).toEqual(validationBody(OP, { [field]: 'is not supported: afford keeps no transaction labels' }));
    }
  });

  it('takes status repeated, as the reference does', async () => {
    expect(await ids('?status=pending&status=declined')).toEqual(['t21', 't7']);
    expect(await ids('?status=pending,declined')).toEqual(['t21', 't7']);
    const bad = await get('?status=pending&status=settled');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(validationBody(OP, { status: 'must be one of: booked, pending, declined' }));
  });

  it('with updated_after, names the transactions deleted since then, and forgets one written again', async () => {
    // A synced copy's last fetch; the store's clock is this process's, so a deletion written afterwards is after it.
    const since = new Date(Date.now() - 1).toISOString();
    const before = await list(`?updated_after=${since}`);
    expect(before.metadata).toEqual({ results: 0, updated_after: since, deleted: [] });

    await served.api.pipeline.ingest([event(1, 'transaction.deleted', { transaction_id: 't21' })]);
    const after = await list(`?updated_after=${since}`);
    expect(after.data).toEqual([]);
    expect(after.metadata.deleted).toEqual([{ transaction_id: 't21', at: expect.any(String) }]);
    expect(Date.parse(after.metadata.deleted?.[0]?.at ?? '')).toBeGreaterThan(Date.parse(since));
    // Only deletions after updated_after: none after now.
    expect((await list(`?updated_after=${new Date(Date.now() + 60_000).toISOString()}`)).metadata.deleted).toEqual([]);
    // Without updated_after there is no deleted list, as in the reference.
    expect((await list()).metadata.deleted).toBeUndefined();

    // Written again, newer than its deletion: it is an update, no longer a deletion.
    const again = {
      transaction_id: 't21', account_id: 'acc-1', provider: 'Monzo', description: 'OCADO', credit_debit_indicator: 'debit',
      amount: { value: '31.00', currency: 'GBP' }, date_time: '2024-03-05T09:00:00Z', status: 'pending',
      enrichments: { categories: { l1: { slug: 'food_and_drink' }, l2: { slug: 'groceries' } } }, tags: [],
    };
    await served.api.pipeline.ingest([event(2, 'transaction.upserted', again)]);
    const rewritten = await list(`?updated_after=${since}`);
    expect(rewritten.data.map((t) => [t.transaction_id, t.amount.value])).toEqual([['t21', '31.00']]);
    // Sent without confidences: each level still has one, as the reference requires, saying nobody vouched for it.
    expect(rewritten.data[0]?.enrichments?.categories).toEqual({ l1: { slug: 'food_and_drink', confidence: '0.00' }, l2: { slug: 'groceries', confidence: '0.00' } });
    expect(rewritten.metadata.deleted).toEqual([]);
  });
});
