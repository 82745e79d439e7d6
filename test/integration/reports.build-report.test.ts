import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { Figure } from '../../src/reports/report-model.js';
import { findForeignAccounts } from '../../src/reports/report-repository.js';
import { buildReport } from '../../src/reports/report-service.js';
import { fixturePath, tempStore } from '../helpers/store.js';

/*
 * test/fixtures/report-hand-computed.ndjson, customer cust-report-1, 2024-01..2024-03 in GBP.
 * January: salary 2345.67; rent 950.00, council tax 123.45, groceries 56.78 + 43.21 (essential 1173.44);
 *   gambling 25.50 (a declined 100.00 bet does not count); not counted at all: a 5.00 groceries refund
 *   (a credit in essentials), a 19.99 refund (banking/refunds_and_reversals, in general), 100.00 of
 *   EUR income, and 300.00 moved from acc-main to acc-save (transfers/between_own_accounts, both legs).
 * February: nothing at all.
 * March: salary 2345.67 + child benefit 102.40 = 2448.07; rent 950.00, council tax 123.45, groceries
 *   61.30, a pending 10.00 at 23:59:59.900 on the 31st (pending counts) = 1144.75; gambling 40.00 + 10.01
 *   (the latter on acc-save) = 50.01.
 * Outside the range: salary on 2023-12-28 and at 2024-04-01T00:00:00Z.
 * Net = income - essential: January 2345.67 - 1173.44 = 1172.23; March 2448.07 - 1144.75 = 1303.32.
 * Averages over 3 months, half-up: 4793.74/3 = 1597.913 -> 1597.91; 2318.19/3 = 772.73;
 *   75.51/3 = 25.17; 2475.55/3 = 825.183 -> 825.18.
 */

type Ctx = Awaited<ReturnType<typeof tempStore>>;
const CUSTOMER = 'cust-report-1';

/** A figure reduced to its strings and counts, for comparing with hand-computed values. */
function shape(f: Figure) {
  return {
    total: f.overall_total.value,
    average: f.monthly_average.value,
    count: f.transaction_count,
    months: f.monthly_totals.map((m) => [m.month, m.amount.value, m.transaction_count]),
    l2: f.by_bucket_l2?.map((b) => [b.bucket_l2, b.amount.value, b.transaction_count]),
  };
}

describe('buildReport on the hand-computed customer', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await tempStore();
    const summary = await ingestFile(ctx.pipeline, fixturePath('report-hand-computed.ndjson'), { batchRows: 1000 });
    expect(summary.deadLetters).toBe(0);
  });
  afterAll(async () => ctx.cleanup());

  it('gives every figure and month as computed by hand', async () => {
    const report = await buildReport(ctx.store, { clientId: 'client-r', customerId: CUSTOMER, range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' });
    expect(report).not.toBeNull();
    const { data, metadata } = report!;
    expect(shape(data.assessment.income.total)).toEqual({
      total: '4793.74', average: '1597.91', count: 3,
      months: [['2024-01', '2345.67', 1], ['2024-02', '0.00', 0], ['2024-03', '2448.07', 2]],
      l2: [['benefits', '102.40', 1], ['salary', '4691.34', 2]],
    });
    expect(shape(data.assessment.expenditure.essential)).toEqual({
      total: '2318.19', average: '772.73', count: 8,
      months: [['2024-01', '1173.44', 4], ['2024-02', '0.00', 0], ['2024-03', '1144.75', 4]],
      l2: [['council_tax', '246.90', 2], ['groceries', '171.29', 4], ['rent', '1900.00', 2]],
    });
    expect(shape(data.assessment.expenditure.non_essential)).toEqual({
      total: '75.51', average: '25.17', count: 3,
      months: [['2024-01', '25.50', 1], ['2024-02', '0.00', 0], ['2024-03', '50.01', 2]],
      l2: [['gambling', '75.51', 3]],
    });
    expect(shape(data.assessment.income.net)).toEqual({
      total: '2475.55', average: '825.18', count: 11,
      months: [['2024-01', '1172.23', 5], ['2024-02', '0.00', 0], ['2024-03', '1303.32', 6]],
      l2: undefined,
    });
    expect(data.months_assessed).toEqual({ start: '2024-01', end: '2024-03', count: 3 });
    expect(data.accounts).toEqual({
      connected: 2,
      account_ids: ['acc-main', 'acc-save'],
      holder_names: ['Jo Taylor', 'Sam Taylor'],
      details: [{ account_id: 'acc-main', account_name: 'Current account', account_type: 'current', provider: 'Monzo' }, { account_id: 'acc-save', account_name: 'Joint savings', account_type: 'savings', provider: 'Monzo' }],
      missing_data: { income: true, expenditure: true, income_months: ['2024-02'], expenditure_months: ['2024-02'] },
    });
    expect(data.data_coverage).toEqual({ start: '2024-01', end: '2024-03', months_with_data: ['2024-01', '2024-03'], count: 2 });
    expect(data.assessment.currency).toBe('GBP');
    expect(metadata).toMatchObject({
      customer_id: CUSTOMER, client_id: 'client-r', month_from: '2024-01', month_to: '2024-03',
      currency: 'GBP', account_ids: null, bucket_id: 'core-dashboard', generator: { name: 'afford' },
    });
    expect(report!.operation_id).toBe('v1_affordability_report');
  });

  it('links each figure and month to its bucket, direction, days and currency', async () => {
    const report = await buildReport(ctx.store, { clientId: 'client-r', customerId: CUSTOMER, range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' });
    const income = report!.data.assessment.income;
    expect(income.total._links).toEqual({
      transactions: '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=income&date_from=2024-01-01T00%3A00%3A00Z&date_to=2024-03-31T23%3A59%3A59Z&currency=GBP&credit_debit_indicator=credit',
    });
    expect(income.total.monthly_totals[1]?._links).toEqual({
      transactions: '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=income&date_from=2024-02-01T00%3A00%3A00Z&date_to=2024-02-29T23%3A59%3A59Z&currency=GBP&credit_debit_indicator=credit',
    });
    expect(income.net._links).toEqual({
      credits: '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=income&date_from=2024-01-01T00%3A00%3A00Z&date_to=2024-03-31T23%3A59%3A59Z&currency=GBP&credit_debit_indicator=credit',
      debits: '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=essentials&date_from=2024-01-01T00%3A00%3A00Z&date_to=2024-03-31T23%3A59%3A59Z&currency=GBP&credit_debit_indicator=debit',
    });
    expect(report!.data.assessment.expenditure.essential.by_bucket_l2?.[0]?._links.transactions).toBe(
      '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=essentials&bucket_l2=council_tax&date_from=2024-01-01T00%3A00%3A00Z&date_to=2024-03-31T23%3A59%3A59Z&currency=GBP&credit_debit_indicator=debit',
    );
  });

  it('restricts to the accounts asked for, flags and links included', async () => {
    const report = await buildReport(ctx.store, {
      clientId: 'client-r', customerId: CUSTOMER, range: { from: '2024-01', to: '2024-03' }, currency: 'GBP', accountIds: ['acc-save'],
    });
    const { data } = report!;
    expect(shape(data.assessment.income.total)).toMatchObject({ total: '0.00', average: '0.00', count: 0, l2: [] });
    expect(shape(data.assessment.expenditure.non_essential)).toMatchObject({
      total: '10.01', average: '3.34', count: 1, months: [['2024-01', '0.00', 0], ['2024-02', '0.00', 0], ['2024-03', '10.01', 1]],
    });
    expect(data.assessment.income.net.overall_total.value).toBe('0.00');
    expect(data.accounts).toEqual({
      connected: 1,
      account_ids: ['acc-save'],
      holder_names: ['Jo Taylor'],
      details: [{ account_id: 'acc-save', account_name: 'Joint savings', account_type: 'savings', provider: 'Monzo' }],
      missing_data: {
        income: true, expenditure: true,
        income_months: ['2024-01', '2024-02', '2024-03'], expenditure_months: ['2024-01', '2024-02'],
      },
    });
    // The transfer in is data, though not income.
    expect(data.data_coverage.months_with_data).toEqual(['2024-01', '2024-03']);
    expect(report!.metadata.account_ids).toEqual(['acc-save']);
    expect((data.assessment.expenditure.non_essential._links as { transactions: string }).transactions).toMatch(/&account_id=acc-save$/);
  });

  it('rounds averages half-up and counts only the requested currency', async () => {
    const two = await buildReport(ctx.store, { clientId: 'client-r', customerId: CUSTOMER, range: { from: '2024-01', to: '2024-02' }, currency: 'GBP' });
    const a = two!.data.assessment;
    expect(a.income.total.monthly_average.value).toBe('1172.84'); // 2345.67 / 2 = 1172.835
    expect(a.income.net.monthly_average.value).toBe('586.12'); // 1172.23 / 2 = 586.115
    expect(a.expenditure.non_essential.monthly_average.value).toBe('12.75');
    const eur = await buildReport(ctx.store, { clientId: 'client-r', customerId: CUSTOMER, range: { from: '2024-01', to: '2024-03' }, currency: 'EUR' });
    expect(shape(eur!.data.assessment.income.total)).toMatchObject({ total: '100.00', count: 1, l2: [['other_income', '100.00', 1]] });
    expect(eur!.data.assessment.expenditure.essential.overall_total).toEqual({ value: '0.00', currency: 'EUR' });
  });

  it('knows no report for an unknown customer, and names accounts that are not the customer\'s', async () => {
    expect(await buildReport(ctx.store, { clientId: 'client-r', customerId: 'nobody', range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' })).toBeNull();
    expect(await findForeignAccounts(ctx.store, { clientId: 'client-r', customerId: CUSTOMER }, ['acc-main', 'acc-x', 'acc-save'])).toEqual(['acc-x']);
  });
});
