import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketTotalsResponse, type TotalsGroupOut } from '../../src/api/schemas/bucket-totals.schemas.js';
import { parseEvent } from '../../src/domain/events.js';
import { sumAmounts } from '../../src/domain/money.js';
import { generateEvents } from '../../src/generate/index.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { authHeaders, expectSchema, followLink, startApi, type ApiHarness } from '../helpers/api.js';

interface Customer {
  customerId: string;
  clientId: string;
  secret?: string;
}

function everyGroup(groups: readonly TotalsGroupOut[]): TotalsGroupOut[] {
  return groups.flatMap((g) => [g, ...everyGroup(g.subtotals ?? [])]);
}

/**
 * Generated data (30 customers x 6 months, with replays, stale versions,
 * deletions and declined transactions): every link of every group and
 * direction, followed through all its pages, sums exactly to its total and
 * counts exactly its transactions.
 */
describe('totals links on a generated data set', () => {
  let api: ApiHarness;
  const customers = new Map<string, Customer>();
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    api = await startApi();
    const lines = [...generateEvents({ customers: 30, months: 6, seed: 5, faults: true, endMonth: '2024-06' })];
    for (const line of lines) {
      const parsed = parseEvent(line);
      if (!parsed.ok) continue;
      const e = parsed.event;
      const known = customers.get(e.customer_id);
      if (!known) customers.set(e.customer_id, { customerId: e.customer_id, clientId: e.client_id, secret: e.customer_secret });
    }
    const file = path.join(path.dirname(api.store.path), 'generated.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    await ingestFile(api.pipeline, file, { batchRows: 5000 });
    for (const clientId of new Set([...customers.values()].map((c) => c.clientId))) {
      tokens.set(clientId, (await api.token(await api.createClient(clientId))).access_token);
    }
  });
  afterAll(async () => api.close());

  const headersOf = (c: Customer) => authHeaders(tokens.get(c.clientId) ?? '', c.clientId, c.customerId, c.secret);

  async function checkLinks(c: Customer, query: string, pageSize?: number): Promise<number> {
    const res = await api.call('GET', `/aggregations/v2/buckets/core-dashboard/totals?${query}`, { headers: headersOf(c) });
    if (res.status === 404) return 0; // a customer deleted by the generated faults
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = expectSchema(bucketTotalsResponse, res.body);
    let links = 0;
    for (const g of everyGroup(body.data)) {
      const both = await followLink(api, g._links.transactions, headersOf(c), pageSize);
      expect(both.count, g._links.transactions).toBe(g.transaction_count);
      expect(both.total).toBe(sumAmounts([g.incoming.total.value, g.outgoing.total.value]));
      for (const d of [g.incoming, g.outgoing]) {
        expect(await followLink(api, d._links.transactions, headersOf(c), pageSize), d._links.transactions).toEqual({
          total: d.total.value,
          count: d.transaction_count,
        });
      }
      links += 3;
    }
    return links;
  }

  /** Checks `query` for each customer, two at a time (reads run on their own connections); returns the links followed. */
  async function checkAll(list: readonly Customer[], query: string, pageSize?: number): Promise<number> {
    let links = 0;
    for (let i = 0; i < list.length; i += 2) {
      const counts = await Promise.all(list.slice(i, i + 2).map((c) => checkLinks(c, query, pageSize)));
      links += counts.reduce((a, b) => a + b, 0);
    }
    return links;
  }

  it('holds for every customer, by bucket_l1 over the whole range', async () => {
    expect(customers.size).toBe(30);
    expect(new Set([...customers.values()].map((c) => c.clientId)).size).toBeGreaterThan(1);
    expect([...customers.values()].some((c) => c.secret !== undefined)).toBe(true);
    expect(await checkAll([...customers.values()], 'group_by=bucket_l1&month_from=2024-01&month_to=2024-06')).toBeGreaterThan(25 * 5 * 3);
  });

  it('holds for month subtotals, with small pages', async () => {
    const sample = [...customers.values()].slice(0, 4);
    expect(await checkAll(sample, 'group_by=bucket_l1,month&month_from=2024-01&month_to=2024-06', 40)).toBeGreaterThan(0);
  });

  it('holds for L2 groupings and shorter ranges', async () => {
    const sample = [...customers.values()].slice(6, 8);
    await checkAll(sample, 'group_by=bucket_l1,bucket_l2&month_from=2024-03&month_to=2024-05');
    await checkAll(sample.slice(0, 1), 'group_by=month,bucket_l2&month_from=2024-06&month_to=2024-06', 10);
  });
});
