import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightsData } from '../../src/reports/insights-model.js';
import { authHeaders, startApi, type ApiHarness } from '../helpers/api.js';
import { transactionData } from '../helpers/webhooks.js';

const CLIENT = 'client-s';
const MONTHS = ['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06'];

/** Two employers paying every month, named in `first` and `second`: 1,000.00 on the 1st and 1,500.00 on the 15th. */
function payslips(customer: string, first: string, second: string) {
  return MONTHS.flatMap((m, i) => [
    [first, '1000.00', `${m}-01T09:00:00Z`, `${customer}-a${i}`],
    [second, '1500.00', `${m}-15T09:00:00Z`, `${customer}-b${i}`],
  ]).map(([description, value, dateTime, id]) => ({
    event_id: `ev-${id}`, type: 'transaction.upserted', occurred_at: '2024-07-01T00:00:00Z', client_id: CLIENT, customer_id: customer,
    data: {
      ...transactionData(String(id), { amount: value, dateTime }), description, credit_debit_indicator: 'credit',
      enrichments: { categories: { l1: { slug: 'income' }, l2: { slug: 'salary' } } },
    },
  }));
}

describe('income streams of employers named in any script', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApi();
    token = (await api.token(await api.createClient(CLIENT))).access_token;
    const events = [
      ...payslips('cust-latin', 'ROMASHKA PAYROLL', 'ETAIREIA PAYROLL'),
      ...payslips('cust-scripts', 'ООО РОМАШКА ЗАРПЛАТА', 'ΕΤΑΙΡΕΙΑ ΜΙΣΘΟΔΟΣΙΑ'),
      // Two names a vowel sign tells apart.
      ...payslips('cust-marks', 'कोमल ट्रेडर्स वेतन', 'कमल ट्रेडर्स वेतन'),
    ];
    // One employer, its name written with and without its accent (and the accent composed or not), month by month.
    const spellings = ['NESTLÉ UK PAYROLL', 'NESTLE UK PAYROLL', 'NESTLE\u0301 UK PAYROLL'];
    events.push(...MONTHS.map((m, i) => ({
      event_id: `ev-nestle-${i}`, type: 'transaction.upserted', occurred_at: '2024-07-01T00:00:00Z', client_id: CLIENT, customer_id: 'cust-accents',
      data: {
        ...transactionData(`nestle-${i}`, { amount: '2000.00', dateTime: `${m}-25T09:00:00Z` }), description: spellings[i % 3], credit_debit_indicator: 'credit',
        enrichments: { categories: { l1: { slug: 'income' }, l2: { slug: 'salary' } } },
      },
    })));
    const result = await api.pipeline.ingest(events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file' as const, sourceRef: 's.ndjson', lineNumber: i + 1 } })));
    expect(result.deadLetters).toEqual([]);
  });
  afterAll(async () => api?.close());

  const streams = async (customer: string) => {
    const res = await api.call<{ data: InsightsData }>('GET', '/v1/affordability/insights?month_from=2024-01&month_to=2024-06', { headers: authHeaders(token, CLIENT, customer) });
    expect(res.status).toBe(200);
    return res.body.data.income.streams.map((s) => ({ name: s.name, frequency: s.frequency, verified: s.verified, monthly: s.predicted_monthly.value }))
      .sort((a, b) => a.monthly.localeCompare(b.monthly));
  };

  it('keeps apart two employers named in Cyrillic and Greek, or in Devanagari told apart by a vowel sign, as it does the same two in Latin letters', async () => {
    expect(await streams('cust-latin')).toEqual([
      { name: 'ROMASHKA PAYROLL', frequency: 'monthly', verified: true, monthly: '1000.00' },
      { name: 'ETAIREIA PAYROLL', frequency: 'monthly', verified: true, monthly: '1500.00' },
    ]);
    expect(await streams('cust-scripts')).toEqual([
      { name: 'ООО РОМАШКА ЗАРПЛАТА', frequency: 'monthly', verified: true, monthly: '1000.00' },
      { name: 'ΕΤΑΙΡΕΙΑ ΜΙΣΘΟΔΟΣΙΑ', frequency: 'monthly', verified: true, monthly: '1500.00' },
    ]);
    expect((await streams('cust-accents')).map(({ frequency, verified, monthly }) => ({ frequency, verified, monthly })))
      .toEqual([{ frequency: 'monthly', verified: true, monthly: '2000.00' }]);
    expect(await streams('cust-marks')).toEqual([
      { name: 'कोमल ट्रेडर्स वेतन', frequency: 'monthly', verified: true, monthly: '1000.00' },
      { name: 'कमल ट्रेडर्स वेतन', frequency: 'monthly', verified: true, monthly: '1500.00' },
    ]);
  });
});
