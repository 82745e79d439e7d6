import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightsData } from '../../src/reports/insights-model.js';
import type { ApiHarness } from '../helpers/api.js';
import { insightsOf, startApiWith, transactionEvents } from '../helpers/insight-events.js';

/**
 * A tenancy that began late in the range, by hand, over January to June
 * 2025: rent of 900.00 on 1 May and 1 June only. Taken as irregular it was
 * averaged over all six months, 1,800.00 / 6 = 300.00 a month: a third of
 * the rent the customer now pays, on the side that overstates what they can
 * afford. A commitment is regular from two payments; a stream of income
 * still needs three (a side job paid twice, 1 May and 1 June, 250.00 each,
 * stays irregular: 500.00 / 6 = 83.33); and two payments a week apart
 * are not yet a weekly commitment.
 */
const CLIENT = 'client-new';
const CUSTOMER = 'cust-new';

const make = transactionEvents('new', CLIENT, '2025-07-01T00:00:00Z');
const tx = (description: string, date: string, amount: string, direction: 'credit' | 'debit', l1: string, l2: string) =>
  make({ customer: CUSTOMER, description, date, amount, direction, l1, l2 });

describe('a commitment that began late in the range', () => {
  let api: ApiHarness;
  let data: InsightsData;

  beforeAll(async () => {
    const events = [
      ...['2025-01-25', '2025-02-25', '2025-03-25', '2025-04-25', '2025-05-25', '2025-06-25'].map((d) => tx('ACME LTD SALARY', d, '2000.00', 'credit', 'income', 'salary')),
      tx('RENT HOMES LTD', '2025-05-01', '900.00', 'debit', 'mortgage_and_rent', 'rent'),
      tx('RENT HOMES LTD', '2025-06-01', '900.00', 'debit', 'mortgage_and_rent', 'rent'),
      tx('DELIVEROO PAYOUT', '2025-05-01', '250.00', 'credit', 'income', 'gig_work'),
      tx('DELIVEROO PAYOUT', '2025-06-01', '250.00', 'credit', 'income', 'gig_work'),
      // Two plan payments a week apart: not yet a weekly commitment (that would be 50.00 x 52 / 12 = 216.67 a month).
      tx('KLARNA*ASOS', '2025-06-03', '50.00', 'debit', 'shopping', 'clothing'),
      tx('KLARNA*ASOS', '2025-06-10', '50.00', 'debit', 'shopping', 'clothing'),
    ];
    const started = await startApiWith(CLIENT, events);
    api = started.api;
    data = await insightsOf(api, started.token, CLIENT, CUSTOMER, '2025-01', '2025-06');
  });
  afterAll(async () => api.close());

  it('predicts the rent it pays now, 900.00 a month, due again on 1 July', () => {
    expect(data.expenditure.commitments.map((c) => [c.kind, c.frequency, c.predicted_monthly.value, c.next_expected_date])).toEqual([
      ['rent', 'monthly', '900.00', '2025-07-01'],
      // Two payments regular only as monthly: a week apart, irregular, 100.00 / 6 = 16.67.
      ['bnpl', 'irregular', '16.67', null],
    ]);
    // 900.00 + 16.67.
    expect(data.expenditure.fixed.predicted_monthly).toEqual({ value: '916.67', currency: 'GBP' });
  });

  it('keeps income of two payments irregular: 500.00 / 6 = 83.33, unverified', () => {
    expect(data.income.streams.map((s) => [s.source, s.frequency, s.predicted_monthly.value, s.verified])).toEqual([
      ['salary', 'monthly', '2000.00', true],
      ['gig', 'irregular', '83.33', false],
    ]);
  });
});
