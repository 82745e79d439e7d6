import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insightsResponse } from '../../src/api/schemas/insights.schemas.js';
import { parseEvent } from '../../src/domain/events.js';
import { generateEvents } from '../../src/generate/index.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { InsightsData, SignalName } from '../../src/reports/insights-model.js';
import { authHeaders, expectSchema, followLink, startApi, type ApiHarness } from '../helpers/api.js';

/**
 * `afford generate` gives some customers each behaviour an underwriter looks
 * for, deterministically by seed, so the demo shows them: two jobs,
 * benefits, a payday loan, returned direct debits, an overdraft, heavy
 * gambling, a deficit. Each flagged signal's link lists exactly its
 * transactions.
 */

interface Customer {
  customerId: string;
  clientId: string;
  secret?: string;
}

const SIGNALS: SignalName[] = ['gambling_share_of_income', 'high_cost_credit', 'returned_direct_debits', 'days_in_overdraft', 'new_borrowing'];

describe('generated customers with insights', () => {
  let api: ApiHarness;
  const tokens = new Map<string, string>();
  const customers = new Map<string, Customer>();
  const insights = new Map<string, InsightsData>();
  const headersOf = (c: Customer) => authHeaders(tokens.get(c.clientId) ?? '', c.clientId, c.customerId, c.secret);

  beforeAll(async () => {
    api = await startApi();
    const lines = [...generateEvents({ customers: 60, months: 12, seed: 7, faults: false, endMonth: '2024-06' })];
    for (const line of lines) {
      const parsed = parseEvent(line);
      if (parsed.ok && !customers.has(parsed.event.customer_id)) {
        const e = parsed.event;
        customers.set(e.customer_id, { customerId: e.customer_id, clientId: e.client_id, secret: e.customer_secret });
      }
    }
    const file = path.join(path.dirname(api.store.path), 'generated.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    await ingestFile(api.pipeline, file, { batchRows: 5000 });
    for (const clientId of new Set([...customers.values()].map((c) => c.clientId))) {
      tokens.set(clientId, (await api.token(await api.createClient(clientId))).access_token);
    }
    for (const c of customers.values()) {
      const res = await api.call('GET', '/v1/affordability/insights?month_from=2023-07&month_to=2024-06', { headers: headersOf(c) });
      expect(res.status).toBe(200);
      insights.set(c.customerId, expectSchema(insightsResponse, res.body).data as InsightsData);
    }
    // A year of 60 customers, ingested and read one by one through the API: longer than a usual hook on a shared machine.
  }, 300_000);
  afterAll(async () => api.close());

  const having = (test: (d: InsightsData) => boolean) => [...insights.entries()].filter(([, d]) => test(d)).map(([id]) => id);

  it('has customers with two jobs, with benefits, and in deficit', () => {
    expect(having((d) => d.income.streams.filter((s) => s.source === 'salary' && s.verified).length >= 2).length).toBeGreaterThan(0);
    expect(having((d) => d.income.streams.some((s) => s.source === 'benefits' && s.verified)).length).toBeGreaterThan(0);
    expect(having((d) => d.disposable_income.deficit).length).toBeGreaterThan(0);
    expect(having((d) => d.expenditure.commitments.some((c) => c.kind === 'loan')).length).toBeGreaterThan(0);
  });

  it('flags each risk signal for some customers, and each flag\'s link lists exactly its transactions', async () => {
    for (const name of SIGNALS) {
      const flagged = having((d) => d.flags.includes(name));
      expect(flagged.length, name).toBeGreaterThan(0);
      const id = flagged[0] ?? '';
      const customer = customers.get(id) as Customer;
      const signal = insights.get(id)?.risk_signals.find((s) => s.name === name);
      expect(signal?.transaction_count, `${name} ${id}`).toBeGreaterThan(0);
      const listed = await followLink(api, signal?._links.transactions ?? '', headersOf(customer));
      expect(listed, `${name} ${id}`).toEqual({ total: signal?.amount.value, count: signal?.transaction_count });
      if (name === 'days_in_overdraft') expect(Number(signal?.detail?.deepest_balance?.value)).toBeLessThan(0);
    }
  });
});
