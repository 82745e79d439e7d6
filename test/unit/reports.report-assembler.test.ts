import { describe, expect, it } from 'vitest';
import { assembleReport } from '../../src/reports/report-assembler.js';
import { transactionsLink } from '../../src/reports/report-links.js';
import { figureSource, type FigureName } from '../../src/reports/report-model.js';
import type { CustomerReportRows, FigureCell } from '../../src/reports/report-repository.js';

const MONTHS = ['2024-01', '2024-02'];

function cells(figure: FigureName, monthly: readonly string[], overall: string, l2: Array<[string, string]> = []): FigureCell[] {
  const base = { client_id: 'k', customer_id: 'c', range_key: 'r', figure, bucket_l2: null, transaction_count: 1 };
  return [
    { ...base, month: null, total: overall },
    ...monthly.map((total, i) => ({ ...base, month: MONTHS[i] ?? '', total })),
    ...l2.map(([bucket, total]) => ({ ...base, month: null, bucket_l2: bucket, total })),
  ];
}

function rows(all: FigureCell[]): CustomerReportRows {
  return {
    accounts: { customer_id: 'c', client_id: 'k', account_ids: ['a'], holder_names: ['H'], account_details: [{ account_id: 'a', account_name: 'Main', account_type: 'current', provider: 'Bank' }] },
    cellsByRange: new Map([['r', all]]),
    coverageByRange: new Map([['r', {
      client_id: 'k', customer_id: 'c', range_key: 'r', months_with_data: ['2024-01'], months_without_income: [], months_without_expenditure: ['2024-02'],
    }]]),
  };
}

const request = { clientId: 'k', customerId: 'c', range: { from: '2024-01', to: '2024-02' }, currency: 'GBP' };

describe('assembleReport', () => {
  const all = [
    ...cells('income', ['100.00', '0.01'], '100.01', [['salary', '100.01']]),
    ...cells('essential', ['200.00', '0.00'], '200.00'),
    ...cells('non_essential', ['0.00', '0.00'], '0.00'),
    ...cells('net', ['-100.00', '0.01'], '-99.99'),
  ];

  it('keeps the SQL strings, averages half-up (negative net included) and sets flags from coverage', () => {
    const report = assembleReport({ request, rows: rows(all), rangeKey: 'r', generatedAt: '2024-03-01T02:00:00.000Z' });
    const a = report.data.assessment;
    expect(a.income.total.monthly_average.value).toBe('50.01'); // 100.01 / 2 = 50.005
    expect(a.income.net.overall_total.value).toBe('-99.99');
    expect(a.income.net.monthly_average.value).toBe('-50.00'); // -49.995: half away from zero
    expect(a.income.total.by_bucket_l2).toHaveLength(1);
    expect(a.income.net.by_bucket_l2).toBeUndefined();
    expect(report.data.accounts.missing_data).toEqual({ income: false, expenditure: true, income_months: [], expenditure_months: ['2024-02'] });
    expect(report.data.data_coverage).toEqual({ start: '2024-01', end: '2024-01', months_with_data: ['2024-01'], count: 1 });
    expect(Object.keys(a.income.total).at(-1)).toBe('_links');
  });

  it('refuses rows that lack a month rather than print a wrong report', () => {
    const short = all.filter((c) => !(c.figure === 'essential' && c.month === '2024-02'));
    expect(() => assembleReport({ request, rows: rows(short), rangeKey: 'r', generatedAt: '2024-03-01T02:00:00.000Z' })).toThrow(expect.objectContaining({ code: 'REPORT_ROWS_INCOMPLETE' }));
  });
});

describe('transactionsLink', () => {
  it('encodes every parameter and repeats account_id', () => {
    const link = transactionsLink(figureSource('essential'), { months: { from: '2024-02', to: '2024-02' }, currency: 'GBP', accountIds: ['acc 1&x', 'b'] }, 'council_tax');
    expect(link).toBe(
      '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=essentials&bucket_l2=council_tax&date_from=2024-02-01T00%3A00%3A00Z&date_to=2024-02-29T23%3A59%3A59Z' +
        '&currency=GBP&credit_debit_indicator=debit&account_id=acc+1%26x&account_id=b',
    );
  });
});
