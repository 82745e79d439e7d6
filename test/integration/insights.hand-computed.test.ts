import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affordabilityReportJson } from '../../src/api/schemas/affordability.schemas.js';
import { insightsResponse } from '../../src/api/schemas/insights.schemas.js';
import { subtract } from '../../src/domain/money.js';
import type { InsightsData, InsightFigure, InsightTotal } from '../../src/reports/insights-model.js';
import type { ReferenceFigure, ReferenceLinks, ReportData } from '../../src/reports/report-model.js';
import { authHeaders, expectSchema, followLink, startApi, type ApiHarness } from '../helpers/api.js';
import { figureOf } from '../../src/reports/insights-figures.js';

/**
 * One customer with every behaviour an underwriter looks for (two jobs,
 * benefits, gig payouts, a payday loan, a personal loan, returned direct
 * debits and their fees, an overdraft, heavy gambling, cash, a deficit
 * month), January to March 2024 (test/fixtures/insights-hand-computed.ndjson).
 * The figures below were worked out by hand from that file; every link is
 * then followed through the transaction list and summed.
 */

const PATH = '/v1/affordability/insights?month_from=2024-01&month_to=2024-03';
const gbp = (value: string) => ({ value, currency: 'GBP' });

describe('insights of a hand-computed customer', () => {
  let api: ApiHarness;
  let headers: Record<string, string>;
  let data: InsightsData;

  beforeAll(async () => {
    api = await startApi({ fixtures: ['insights-hand-computed.ndjson'] });
    headers = authHeaders((await api.token(await api.createClient('client-i'))).access_token, 'client-i', 'cust-ins-1');
    const res = await api.call('GET', PATH, { headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    data = expectSchema(insightsResponse, res.body).data as InsightsData;
  });
  afterAll(async () => api.close());

  it('finds each income stream, its frequency, next date and predicted month, and which are verified', () => {
    const streams = data.income.streams.map((s) => [s.stream_id, s.source, s.frequency, s.months_present.length, s.amount_consistency.spread_percent,
      s.amount_consistency.consistent, s.next_expected_date, s.predicted_monthly.value, s.verified, s.total.overall_total.value, s.total.transaction_count]);
    expect(streams).toEqual([
      ['stream:salary:salary acme ltd', 'salary', 'monthly', 3, '5.00', true, '2024-04-26', '2000.00', true, '6100.00', 3],
      // Four-weekly: 400.00 x 13 / 12 = 433.33.
      ['stream:salary:bright cafe payroll', 'salary', 'four_weekly', 3, '5.00', true, '2024-04-26', '433.33', true, '1620.00', 4],
      ['stream:benefits:dwp uc', 'benefits', 'monthly', 3, '6.67', true, '2024-04-11', '300.00', true, '920.00', 3],
      // Two payouts in one month: irregular, so 135.50 / 3 months.
      ['stream:gig:uber payout', 'gig', 'irregular', 1, '36.16', false, null, '45.17', false, '135.50', 2],
    ]);
    expect(data.income.total.overall_total).toEqual(gbp('8775.50'));
    expect(data.income.verified.predicted_monthly).toEqual(gbp('2733.33'));
    expect(data.income.verified.total.overall_total).toEqual(gbp('8640.00'));
    expect(data.income.unverified.predicted_monthly).toEqual(gbp('45.17'));
  });

  it('lists the commitments with their kinds, and splits spending into fixed and flexible', () => {
    const items = data.expenditure.commitments.map((c) => [c.kind, c.name, c.frequency, c.predicted_monthly.value, c.total.overall_total.value]);
    expect(items).toEqual([
      ['rent', 'RENT HOMES LTD', 'monthly', '900.00', '2700.00'],
      ['credit_card', 'BARCLAYCARD', 'monthly', '200.00', '600.00'],
      ['council_tax', 'LBH COUNCIL TAX', 'monthly', '150.00', '450.00'],
      // Repaid from February, a month after the loan was taken: two payments a month apart are monthly for a commitment.
      ['loan', 'ZOPA LOAN', 'monthly', '95.00', '190.00'],
      // March's 90.00 was returned the next day (UNPAID DD), and never paid: January and February, monthly.
      ['utilities', 'OCTOPUS ENERGY', 'monthly', '90.00', '180.00'],
      ['insurance', 'ADMIRAL INSURANCE', 'monthly', '45.00', '135.00'],
      ['bnpl', 'KLARNA*ASOS', 'monthly', '40.00', '120.00'],
      ['subscription', 'NETFLIX.COM', 'monthly', '10.99', '32.97'],
      // PHONECO's one payment (30.00 on 5 February) was returned the next day: no payment, no commitment.
    ]);
    // 7,867.97 of debits outside transfers, less the two returned direct debits (90.00 and 30.00).
    expect(data.expenditure.total.overall_total).toEqual(gbp('7747.97'));
    expect(data.expenditure.total.transaction_count).toBe(38);
    expect(data.expenditure.fixed.total.overall_total).toEqual(gbp('4407.97'));
    // 900.00 + 200.00 + 150.00 + 95.00 + 90.00 + 45.00 + 40.00 + 10.99.
    expect(data.expenditure.fixed.predicted_monthly).toEqual(gbp('1530.99'));
    expect(data.expenditure.flexible.total.overall_total).toEqual(gbp('3340.00'));
    // Flexible months 650.00, 785.00, 1905.00: the median month.
    expect(data.expenditure.flexible.predicted_monthly).toEqual(gbp('785.00'));
  });

  it('shows disposable income month by month, with the deficit month marked', () => {
    const d = data.disposable_income;
    expect(d.monthly_totals.map((m) => [m.month, m.amount.value, m.deficit])).toEqual([
      // February and March without the returned 30.00 and 90.00.
      ['2024-01', '614.01', false], ['2024-02', '519.51', false], ['2024-03', '-105.99', true],
    ]);
    // 1,027.53 / 3 = 342.51.
    expect([d.overall_total.value, d.monthly_average.value, d.deficit, d.deficit_months]).toEqual(['1027.53', '342.51', false, ['2024-03']]);
  });

  it('gives every risk signal its value, threshold and flag', () => {
    expect(data.risk_signals.map((s) => [s.name, s.value, s.threshold, s.flagged, s.amount.value, s.transaction_count])).toEqual([
      // 1,000.00 of 8,775.50 is 11.395...%, shown rounded toward zero.
      ['gambling_share_of_income', '11.39', '10', true, '1000.00', 5],
      ['high_cost_credit', '1', '1', true, '250.00', 1],
      ['returned_direct_debits', '2', '1', true, '120.00', 2],
      ['days_in_overdraft', '11', '1', true, '665.99', 6],
      ['new_borrowing', '2', '1', true, '1250.00', 2],
      // 650.00 of 7,747.97 is 8.389...%.
      ['cash_share_of_spending', '8.38', '20', false, '650.00', 4],
    ]);
    const byName = new Map(data.risk_signals.map((s) => [s.name, s]));
    // The card's -1,200.00 is money owed, not an overdraft.
    expect(byName.get('days_in_overdraft')?.detail?.deepest_balance).toEqual(gbp('-230.99'));
    expect(byName.get('returned_direct_debits')?.detail?.fees).toMatchObject({ amount: gbp('50.00'), transaction_count: 2 });
    expect(data.flags).toEqual(['gambling_share_of_income', 'high_cost_credit', 'returned_direct_debits', 'days_in_overdraft', 'new_borrowing']);
  });

  it('links every figure and signal to exactly its transactions', async () => {
    const checks: Array<{ what: string; link: string; value: string; count: number }> = [];
    const figure = (what: string, f: InsightTotal & { monthly_totals?: InsightFigure['monthly_totals'] }) => {
      checks.push({ what, link: f._links.transactions, value: f.overall_total.value, count: f.transaction_count });
      for (const m of f.monthly_totals ?? []) checks.push({ what: `${what} ${m.month}`, link: m._links.transactions, value: m.amount.value, count: m.transaction_count });
    };
    figure('income', data.income.total);
    figure('verified', data.income.verified.total);
    figure('unverified', data.income.unverified.total);
    for (const s of data.income.streams) figure(s.stream_id, s.total);
    figure('expenditure', data.expenditure.total);
    figure('fixed', data.expenditure.fixed.total);
    figure('flexible', data.expenditure.flexible.total);
    for (const c of data.expenditure.commitments) figure(c.commitment_id, c.total);
    for (const s of data.risk_signals) {
      figure(s.name, { overall_total: s.amount, transaction_count: s.transaction_count, _links: s._links });
      const fees = s.detail?.fees;
      if (fees) checks.push({ what: `${s.name} fees`, link: fees._links.transactions, value: fees.amount.value, count: fees.transaction_count });
    }
    expect(checks.length).toBeGreaterThan(40);
    // A key nothing carries lists nothing, rather than everything.
    expect(await followLink(api, '/financial/v2/transactions?insight=no-such-key', headers)).toEqual({ total: '0.00', count: 0 });
    // A figure of no key (no verified stream, say) links to nothing, not to every transaction of the range.
    const none = figureOf({ range: { from: '2024-01', to: '2024-06' }, currency: 'GBP', cells: new Map() }, []);
    expect(none._links.transactions).toContain('insight=none');
    for (const link of [none._links.transactions, ...none.monthly_totals.map((m) => m._links.transactions)]) {
      expect(await followLink(api, link, headers), link).toEqual({ total: '0.00', count: 0 });
    }
    for (const c of checks) {
      expect(await followLink(api, c.link, headers), c.what).toEqual({ total: c.value, count: c.count });
    }
    // Shares link their denominators; disposable income is its income link's sum minus its expenditure link's.
    const gambling = data.risk_signals[0];
    expect((await followLink(api, gambling?._links.denominator ?? '', headers)).total).toBe('8775.50');
    for (const m of [...data.disposable_income.monthly_totals, data.disposable_income]) {
      const income = await followLink(api, m._links.income, headers);
      const spending = await followLink(api, m._links.expenditure, headers);
      expect(subtract(income.total, spending.total)).toBe('amount' in m ? m.amount.value : m.overall_total.value);
    }
  });

  it('puts the reference figures beside the report\'s own, each with its months, predicted month and links, and the insights as a section', async () => {
    const res = await api.call('GET', PATH.replace('insights', 'report'), { headers });
    expect(res.status).toBe(200);
    const report = expectSchema(affordabilityReportJson, res.body).data as ReportData;
    expect(report.insights).toEqual({ ...data });
    const { income, expenditure } = report.assessment;
    const shape = (f: ReferenceFigure) => [f.overall_total.value, f.predicted_monthly.value, f.monthly_totals.map((m) => m.amount.value)];
    // Income but benefits: 8775.50 - 920.00; predicted: 2000.00 + 433.33 + 45.17 from the streams.
    expect(shape(income.net_disposable)).toEqual(['7855.50', '2478.50', ['2400.00', '2535.50', '2920.00']]);
    // Less essential spending (1635.00, 1770.00, 1750.00; median month 1750.00).
    expect(expenditure.essential.predicted_monthly.value).toBe('1750.00');
    expect(shape(income.net_discretionary)).toEqual(['2700.50', '728.50', ['765.00', '765.50', '1170.00']]);
    expect(shape(expenditure.fixed)).toEqual(['4407.97', '1530.99', ['1435.99', '1530.99', '1440.99']]);
    expect(shape(expenditure.flexible)).toEqual(['3340.00', '785.00', ['650.00', '785.00', '1905.00']]);
    expect(expenditure.flexible.predicted_monthly_range).toEqual({ low: gbp('650.00'), high: gbp('1905.00'), average: gbp('1113.33') });
    expect(income.total.predicted_monthly).toEqual(gbp('2835.50'));

    const sumOf = async (links: ReferenceLinks): Promise<{ total: string; count?: number }> => {
      if ('transactions' in links) return followLink(api, links.transactions, headers);
      const inc = await followLink(api, links.income_transactions, headers);
      const out = await followLink(api, links.expenditure_transactions, headers);
      return { total: subtract(inc.total, out.total) };
    };
    for (const f of [income.net_disposable, income.net_discretionary, expenditure.fixed, expenditure.flexible]) {
      for (const m of [f, ...f.monthly_totals]) {
        const value = 'amount' in m ? m.amount.value : m.overall_total.value;
        const listed = await sumOf(m._links);
        expect(listed.total).toBe(value);
        if (m.transaction_count !== undefined) expect(listed.count).toBe(m.transaction_count);
      }
    }
  });
});
