import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affordabilityReportJson } from '../../src/api/schemas/affordability.schemas.js';
import { parseEvent } from '../../src/domain/events.js';
import { subtract } from '../../src/domain/money.js';
import { generateEvents } from '../../src/generate/index.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { reportFigures, type FigureLinks, type ReportData } from '../../src/reports/report-model.js';
import { authHeaders, expectSchema, followLink, startApi, type ApiHarness } from '../helpers/api.js';

/**
 * Every figure of a report, overall, month by month and bucket by bucket,
 * links to exactly its transactions: following the link through every page
 * gives amounts that sum to the figure, and as many as it counts. Net income
 * is its credits' sum minus its debits' sum.
 */

interface Customer {
  customerId: string;
  clientId: string;
  secret?: string;
}

interface Checked {
  value: string;
  count: number;
  links: FigureLinks;
  what: string;
}

function everyAmount(data: ReportData): Checked[] {
  return reportFigures(data).flatMap(({ name, figure }) => [
    { value: figure.overall_total.value, count: figure.transaction_count, links: figure._links, what: `${name} overall` },
    ...figure.monthly_totals.map((m) => ({ value: m.amount.value, count: m.transaction_count, links: m._links, what: `${name} ${m.month}` })),
    ...(figure.by_bucket_l2 ?? []).map((b) => ({ value: b.amount.value, count: b.transaction_count, links: b._links, what: `${name} ${b.bucket_l2}` })),
  ]);
}

describe('following the links of affordability reports', () => {
  let api: ApiHarness;
  const tokens = new Map<string, string>();
  const generated = new Map<string, Customer>();

  beforeAll(async () => {
    api = await startApi({ fixtures: ['report-hand-computed.ndjson'] });
    const lines = [...generateEvents({ customers: 4, months: 4, seed: 11, faults: true, endMonth: '2024-06' })];
    for (const line of lines) {
      const parsed = parseEvent(line);
      if (parsed.ok && !generated.has(parsed.event.customer_id)) {
        const e = parsed.event;
        generated.set(e.customer_id, { customerId: e.customer_id, clientId: e.client_id, secret: e.customer_secret });
      }
    }
    const file = path.join(path.dirname(api.store.path), 'generated.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    await ingestFile(api.pipeline, file, { batchRows: 5000 });
    for (const clientId of new Set(['client-r', ...[...generated.values()].map((c) => c.clientId)])) {
      tokens.set(clientId, (await api.token(await api.createClient(clientId))).access_token);
    }
  });
  afterAll(async () => api.close());

  const headersOf = (c: Customer) => authHeaders(tokens.get(c.clientId) ?? '', c.clientId, c.customerId, c.secret);

  /** Follows every link of the report at `query`; returns how many amounts were checked, or null when the customer is gone. */
  async function checkReport(c: Customer, query: string, pageSize?: number): Promise<number | null> {
    const res = await api.call('GET', `/v1/affordability/report?${query}`, { headers: headersOf(c) });
    if (res.status === 404) return null;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = expectSchema(affordabilityReportJson, res.body);
    const amounts = everyAmount(report.data as ReportData);
    for (const a of amounts) {
      if ('transactions' in a.links) {
        const listed = await followLink(api, a.links.transactions, headersOf(c), pageSize);
        expect({ total: listed.total, count: listed.count }, `${c.customerId} ${a.what}`).toEqual({ total: a.value, count: a.count });
      } else {
        const credits = await followLink(api, a.links.credits, headersOf(c), pageSize);
        const debits = await followLink(api, a.links.debits, headersOf(c), pageSize);
        expect({ total: subtract(credits.total, debits.total), count: credits.count + debits.count }, `${c.customerId} ${a.what}`)
          .toEqual({ total: a.value, count: a.count });
      }
    }
    return amounts.length;
  }

  it('holds for every figure and month of the hand-computed customer, paged two at a time', async () => {
    const c = { customerId: 'cust-report-1', clientId: 'client-r' };
    expect(await checkReport(c, 'month_from=2024-01&month_to=2024-03', 2)).toBeGreaterThan(20);
    // Restricted to accounts, the links carry them (repeated account_id).
    expect(await checkReport(c, 'month_from=2024-01&month_to=2024-03&account_id=acc-save')).toBeGreaterThan(10);
    expect(await checkReport(c, 'month_from=2023-12&month_to=2024-04&account_id=acc-main&account_id=acc-save')).toBeGreaterThan(10);
    expect(await checkReport(c, 'month_from=2024-01&month_to=2024-03&currency=EUR')).toBeGreaterThan(10);
  });

  it('holds for every figure and month of generated customers, faults and declined transactions included', async () => {
    let checked = 0;
    for (const c of generated.values()) checked += (await checkReport(c, 'month_from=2024-03&month_to=2024-06')) ?? 0;
    expect(checked).toBeGreaterThan(100);
  });
});
