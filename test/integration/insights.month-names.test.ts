import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, followLink, type ApiHarness } from '../helpers/api.js';
import { insightsOf, startApiWith, transactionEvents } from '../helpers/insight-events.js';

/**
 * Payments whose text names the month they are for, by hand, over January
 * to June 2025: a salary described `ACME LTD SALARY JAN` to `... JUN` (no
 * counterparty), one described `BETA PLC PAY JANUARY 2025` to `... JUNE
 * 2025`, rent `RENT HOMES LTD MARCH` and so on, and a credit described only
 * `MAY`. Grouped by their whole text, each month was a stream of its own,
 * none regular: no verified income at all.
 */
const CLIENT = 'client-months';
const SHORT = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN'];
const LONG = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE'];

const make = transactionEvents('months', CLIENT, '2025-07-01T00:00:00Z');
const payment = (customer: string, description: string, date: string, amount: string, direction: 'credit' | 'debit', l1: string, l2: string) =>
  make({ customer, description, date, amount, direction, l1, l2, confidence: '0.99' });
const day = (month: number, d: string) => `2025-0${month}-${d}`;

describe('payments whose text names their month', () => {
  let api: ApiHarness;
  let token: string;
  const insights = (customer: string) => insightsOf(api, token, CLIENT, customer, '2025-01', '2025-06');

  beforeAll(async () => {
    const events = [
      ...SHORT.map((m, i) => payment('cust-months', `ACME LTD SALARY ${m}`, day(i + 1, '25'), '2000.00', 'credit', 'income', 'salary')),
      ...LONG.map((m, i) => payment('cust-months', `BETA PLC PAY ${m} 2025`, day(i + 1, '10'), '500.00', 'credit', 'income', 'salary')),
      ...LONG.map((m, i) => payment('cust-months', `RENT HOMES LTD ${m}`, day(i + 1, '01'), '900.00', 'debit', 'mortgage_and_rent', 'rent')),
      payment('cust-months', 'MAY', day(5, '15'), '40.00', 'credit', 'income', 'other_income'),
    ];
    ({ api, token } = await startApiWith(CLIENT, events));
  });
  afterAll(async () => api.close());

  it('groups a salary named by its month into one monthly stream, verified: 2,000.00 and 500.00 a month', async () => {
    const data = await insights('cust-months');
    expect(data.income.streams.map((s) => [s.stream_id, s.frequency, s.months_present.length, s.verified, s.predicted_monthly.value, s.total.overall_total.value])).toEqual([
      ['stream:salary:acme ltd salary', 'monthly', 6, true, '2000.00', '12000.00'],
      ['stream:salary:beta plc pay', 'monthly', 6, true, '500.00', '3000.00'],
      // A text of a month's name alone keeps it: nothing else is left to name the payer by.
      ['stream:other:may', 'irregular', 1, false, '6.67', '40.00'],
    ]);
    // 2,000.00 + 500.00.
    expect(data.income.verified.predicted_monthly).toEqual({ value: '2500.00', currency: 'GBP' });
  });

  it('groups rent named by its month into one monthly commitment', async () => {
    const data = await insights('cust-months');
    expect(data.expenditure.commitments.map((c) => [c.kind, c.frequency, c.predicted_monthly.value, c.total.overall_total.value])).toEqual([['rent', 'monthly', '900.00', '5400.00']]);
  });

  it("links each stream to exactly its six payments, whatever month each names", async () => {
    const data = await insights('cust-months');
    for (const [stream, total] of [['stream:salary:acme ltd salary', '12000.00'], ['stream:salary:beta plc pay', '3000.00']] as const) {
      const s = data.income.streams.find((x) => x.stream_id === stream);
      expect(await followLink(api, s?.total._links.transactions as string, authHeaders(token, CLIENT, 'cust-months'))).toEqual({ total, count: 6 });
    }
  });
});
