import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, followLink, type ApiHarness } from '../helpers/api.js';
import { insightsOf, startApiWith, transactionEvents } from '../helpers/insight-events.js';

/**
 * Income that stops, by hand, over January to June 2025: a salary paid on
 * the 25th from January to April only; a change of job (employer A from
 * January to March, employer B from April to June); and a salary paid all
 * through the range, whose next payment (25 July) is not yet due.
 */
const CLIENT = 'client-end';
const gbp = (value: string) => ({ value, currency: 'GBP' });

const make = transactionEvents('end', CLIENT, '2025-07-01T00:00:00Z');
const salary = (customer: string, payer: string, date: string, amount: string) =>
  make({ customer, description: `${payer} SALARY`, date, amount, direction: 'credit', l1: 'income', l2: 'salary', confidence: '0.99', counterparty: payer });
const months = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2025-0${from + i}-25`);

describe('income streams that have stopped by the end of the range', () => {
  let api: ApiHarness;
  let token: string;
  const insights = (customer: string) => insightsOf(api, token, CLIENT, customer, '2025-01', '2025-06');

  beforeAll(async () => {
    const events = [
      ...months(1, 4).map((d) => salary('cust-stopped', 'ACME LTD', d, '2000.00')),
      ...months(1, 3).map((d) => salary('cust-new-job', 'ACME LTD', d, '2000.00')),
      ...months(4, 6).map((d) => salary('cust-new-job', 'BETA PLC', d, '2200.00')),
      ...months(1, 6).map((d) => salary('cust-steady', 'ACME LTD', d, '2000.00')),
    ];
    ({ api, token } = await startApiWith(CLIENT, events));
  });
  afterAll(async () => api.close());

  it('ends a salary that stopped in April: no verified income, and nothing predicted from it', async () => {
    const data = await insights('cust-stopped');
    expect(data.income.streams.map((s) => [s.name, s.frequency, s.next_expected_date, s.ended, s.verified, s.predicted_monthly.value])).toEqual([
      ['ACME LTD SALARY', 'monthly', '2025-05-25', true, false, '0.00'],
    ]);
    expect(data.income.verified.predicted_monthly).toEqual(gbp('0.00'));
    expect(data.income.unverified.predicted_monthly).toEqual(gbp('0.00'));
    // What it paid is still there, and its link still sums to it.
    expect(data.income.unverified.total.overall_total).toEqual(gbp('8000.00'));
    expect(await followLink(api, data.income.unverified.total._links.transactions, authHeaders(token, CLIENT, 'cust-stopped'))).toEqual({ total: '8000.00', count: 4 });
  });

  it('counts only the new job after a change of job', async () => {
    const data = await insights('cust-new-job');
    expect(data.income.streams.map((s) => [s.name, s.ended, s.verified, s.predicted_monthly.value])).toEqual([
      ['BETA PLC SALARY', false, true, '2200.00'],
      ['ACME LTD SALARY', true, false, '0.00'],
    ]);
    expect(data.income.verified.predicted_monthly).toEqual(gbp('2200.00'));
  });

  it('keeps a salary whose next payment is not yet due', async () => {
    const data = await insights('cust-steady');
    expect(data.income.streams.map((s) => [s.next_expected_date, s.ended, s.verified, s.predicted_monthly.value])).toEqual([['2025-07-25', false, true, '2000.00']]);
    expect(data.income.verified.predicted_monthly).toEqual(gbp('2000.00'));
  });
});

describe('pay on the last Friday of the month, against pay every four weeks', () => {
  let api: ApiHarness;
  let token: string;

  beforeAll(async () => {
    // Gaps of 28, 28, 28, 35 and 28 days: four in five pass as four-weekly, all five as monthly.
    const lastFridays = ['2025-01-31', '2025-02-28', '2025-03-28', '2025-04-25', '2025-05-30', '2025-06-27'];
    // Every 28 days from 3 January: January holds two.
    const fourWeekly = ['2025-01-03', '2025-01-31', '2025-02-28', '2025-03-28', '2025-04-25', '2025-05-23', '2025-06-20'];
    const events = [...lastFridays.map((d) => salary('cust-last-friday', 'ACME LTD', d, '2000.00')), ...fourWeekly.map((d) => salary('cust-four-weekly', 'ACME LTD', d, '2000.00'))];
    ({ api, token } = await startApiWith(CLIENT, events));
  });
  afterAll(async () => api.close());

  const stream = async (customer: string) => {
    const data = await insightsOf(api, token, CLIENT, customer, '2025-01', '2025-06');
    return data.income.streams.map((s) => [s.frequency, s.next_expected_date, s.verified, s.predicted_monthly.value]);
  };

  it('takes one payment in every month as monthly: 12 a year, 2,000.00 a month, not 13 and 2,166.67', async () => {
    expect(await stream('cust-last-friday')).toEqual([['monthly', '2025-07-27', true, '2000.00']]);
  });

  it('keeps pay every 28 days four-weekly, 13 a year: 2,000.00 x 13 / 12 = 2,166.67', async () => {
    expect(await stream('cust-four-weekly')).toEqual([['four_weekly', '2025-07-18', true, '2166.67']]);
  });
});

describe('a payday loan filed under income by the categoriser', () => {
  let api: ApiHarness;
  let token: string;

  beforeAll(async () => {
    const loan = { ...salary('cust-loan', 'LENDING STREAM', '2025-03-10', '600.00') };
    (loan.data as { description: string }).description = 'LENDING STREAM LOAN';
    (loan.data as { enrichments: { categories: { l2: { slug: string } } } }).enrichments.categories.l2.slug = 'other_income';
    const events = [...months(1, 6).map((d) => salary('cust-loan', 'ACME LTD', d, '2000.00')), loan];
    ({ api, token } = await startApiWith(CLIENT, events));
  });
  afterAll(async () => api.close());

  it('is borrowing, not income: flagged as high-cost credit and left out of income and its streams', async () => {
    const data = await insightsOf(api, token, CLIENT, 'cust-loan', '2025-01', '2025-06');
    expect(data.income.total.overall_total).toEqual(gbp('12000.00'));
    expect(data.income.streams.map((s) => s.name)).toEqual(['ACME LTD SALARY']);
    expect(data.risk_signals.find((s) => s.name === 'high_cost_credit')).toMatchObject({ value: '1', flagged: true, amount: gbp('600.00') });
    expect(await followLink(api, data.income.total._links.transactions, authHeaders(token, CLIENT, 'cust-loan'))).toEqual({ total: '12000.00', count: 6 });
  });
});
