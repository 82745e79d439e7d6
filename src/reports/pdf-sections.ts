import { drawBarChart } from './pdf-chart.js';
import { formatCount, formatMoney, longMonth, readableInstant } from './pdf-format.js';
import { accountTypeLabel, label } from './pdf-labels.js';
import { COLOURS, type PdfPage } from './pdf-layout.js';
import { drawTable, moneyCell, type Cell, type Column } from './pdf-table.js';
import { reportFigures, type AffordabilityReport, type Figure } from './report-model.js';
import type { InsightsData } from './insights-model.js';

/**
 * The report's overview sections: who and what it covers, the figures, the
 * chart, data sufficiency and month by month. Amounts are the report's own
 * strings, formatted for reading (pdf-format.ts): the same pennies as the JSON.
 */

function monthList(months: readonly string[]): string {
  return months.length ? months.map(longMonth).join(', ') : 'none';
}

export function header(page: PdfPage, report: AffordabilityReport): void {
  const { data, metadata } = report;
  page.cell('Affordability report', page.left, page.y, page.width, { bold: true, size: 18 });
  page.y += 24;
  page.cell('Income and expenditure from connected bank accounts', page.left, page.y, page.width, { size: 9, colour: COLOURS.muted });
  page.y += 18;
  const restricted = metadata.account_ids ? ' (selected accounts only)' : '';
  page.keyValues([
    ['Customer', metadata.customer_id],
    ['Client', metadata.client_id],
    ['Period', `${longMonth(metadata.month_from)} to ${longMonth(metadata.month_to)} (${data.months_assessed.count} months)`],
    ['Currency', metadata.currency],
    ['Holders', data.accounts.holder_names.join(', ') || 'not known'],
    ['Accounts', `${data.accounts.connected}${restricted}`],
    ['Generated', readableInstant(metadata.generated_at)],
    ['Generator', `${metadata.generator.name} ${metadata.generator.version}`],
  ]);
  page.y += 2;
  page.rule();
}

/** One line per account: its name and type, the bank, and its id. */
export function accounts(page: PdfPage, report: AffordabilityReport): void {
  const details = report.data.accounts.details;
  if (details.length === 0) return;
  page.heading('Accounts', 10);
  const columns: Column[] = [
    { header: 'Account', weight: 3, align: 'left' },
    { header: 'Type', weight: 2, align: 'left' },
    { header: 'Provider', weight: 2, align: 'left' },
    { header: 'Account id', weight: 3, align: 'left' },
  ];
  const rows = details.map((d) => [d.account_name ?? 'not yet known', d.account_type ? accountTypeLabel(d.account_type) : 'not yet known', d.provider ?? '', d.account_id]);
  drawTable(page, columns, rows, { rowHeight: 13, size: 8.5 });
}

/** Total, monthly average and count of each figure; net income has no count of its own. */
export function summary(page: PdfPage, report: AffordabilityReport): void {
  page.heading('Income and expenditure');
  const currency = report.metadata.currency;
  const columns: Column[] = [
    { header: 'Figure', weight: 4, align: 'left' },
    { header: 'Total', weight: 2, align: 'right' },
    { header: 'Monthly average', weight: 2, align: 'right' },
    { header: 'Transactions', weight: 1.5, align: 'right' },
  ];
  const rows = reportFigures(report.data).map(({ name, label, figure }) => [
    label,
    moneyCell(figure.overall_total.value, currency),
    moneyCell(figure.monthly_average.value, currency),
    // A difference of two sums counts no transactions of its own.
    name === 'net' ? '' : formatCount(figure.transaction_count),
  ]);
  drawTable(page, columns, rows);
}

export function chart(page: PdfPage, report: AffordabilityReport): void {
  page.heading('Income against spending, month by month');
  const { income, expenditure } = report.data.assessment;
  const values = (f: Figure) => f.monthly_totals.map((m) => m.amount.value);
  drawBarChart(page, income.total.monthly_totals.map((m) => m.month), [
    { label: 'Income', colour: COLOURS.income, values: values(income.total) },
    { label: 'Essential expenditure', colour: COLOURS.essential, values: values(expenditure.essential) },
    { label: 'Non-essential expenditure', colour: COLOURS.nonEssential, values: values(expenditure.non_essential) },
  ], 150, (v) => formatMoney(String(Math.round(v)), report.metadata.currency).replace(/\.00$/, ''));
}

export function sufficiency(page: PdfPage, report: AffordabilityReport): void {
  const { data } = report;
  const missing = data.accounts.missing_data;
  const coverage = data.data_coverage;
  page.heading('Data sufficiency');
  const notes = [
    `Months assessed: ${data.months_assessed.count} (${longMonth(data.months_assessed.start)} to ${longMonth(data.months_assessed.end)}).`,
    `Months with any transaction: ${coverage.count} of ${data.months_assessed.count}` +
      (coverage.count && coverage.start && coverage.end ? ` (${longMonth(coverage.start)} to ${longMonth(coverage.end)}).` : '.'),
    `Months with no income: ${monthList(missing.income_months)}.`,
    `Months with no expenditure at all: ${monthList(missing.expenditure_months)}.`,
    `Accounts connected: ${data.accounts.connected}.`,
  ];
  for (const note of notes) page.paragraph(`•  ${note}`, { size: 9 });
  page.y += 2;
  page.paragraph(
    'How the figures are made: income is the credits in the income bucket; essential and non-essential expenditure are the ' +
      'debits in the essentials and non-essentials buckets; net income is income minus essential expenditure. Transfers between ' +
      "the customer's own accounts and refunds are not income, and refunds do not reduce expenditure. Declined transactions are " +
      `left out; pending ones count. Only transactions in ${report.metadata.currency} are included. Monthly averages divide by ` +
      'every month of the period, empty months included, and round half-up to the penny.',
  );
}

export function monthByMonth(page: PdfPage, report: AffordabilityReport, insights?: InsightsData): void {
  const { income, expenditure } = report.data.assessment;
  const currency = report.metadata.currency;
  const missing = report.data.accounts.missing_data;
  const withData = new Set(report.data.data_coverage.months_with_data);
  page.heading('Month by month');
  const notes = income.total.monthly_totals.map((m) =>
    !withData.has(m.month)
      ? 'no transactions'
      : [missing.income_months.includes(m.month) ? 'no income' : '', missing.expenditure_months.includes(m.month) ? 'no expenditure' : '']
          .filter(Boolean)
          .join(', '),
  );
  // A column with nothing in it says nothing: notes only when some month has one.
  const withNotes = notes.some(Boolean);
  // Disposable income (insights): income minus all spending; a deficit month shows in red.
  const disposable = insights?.disposable_income;
  const columns: Column[] = [
    { header: 'Month', weight: 2.2, align: 'left' },
    { header: 'Income', weight: 2, align: 'right' },
    { header: 'Essential', weight: 2, align: 'right' },
    { header: 'Non-essential', weight: 2, align: 'right' },
    { header: 'Net income', weight: 2, align: 'right' },
    ...(disposable ? [{ header: 'Disposable', weight: 2, align: 'right' } as Column] : []),
    ...(withNotes ? [{ header: 'Notes', weight: 2.4, align: 'left' } as Column] : []),
  ];
  const rows = income.total.monthly_totals.map((m, i): Cell[] => [
    longMonth(m.month),
    moneyCell(m.amount.value, currency),
    moneyCell(expenditure.essential.monthly_totals[i]?.amount.value ?? '', currency),
    moneyCell(expenditure.non_essential.monthly_totals[i]?.amount.value ?? '', currency),
    moneyCell(income.net.monthly_totals[i]?.amount.value ?? '', currency),
    ...(disposable ? [moneyCell(disposable.monthly_totals[i]?.amount.value ?? '', currency)] : []),
    ...(withNotes ? [notes[i] ?? ''] : []),
  ]);
  const total: Cell[] = [
    'Total',
    ...[income.total, expenditure.essential, expenditure.non_essential, income.net].map((f) => moneyCell(f.overall_total.value, currency, true)),
    ...(disposable ? [moneyCell(disposable.overall_total.value, currency, true)] : []),
  ];
  drawTable(page, columns, rows, { totalRow: withNotes ? [...total, ''] : total, size: 8.5 });
}

/** Each summed figure split by bucket, then how net income is made. */
export function bucketAppendix(page: PdfPage, report: AffordabilityReport): void {
  const currency = report.metadata.currency;
  page.heading('Appendix: each figure by bucket', 13);
  const columns: Column[] = [
    { header: 'Bucket', weight: 5, align: 'left' },
    { header: 'Transactions', weight: 2, align: 'right' },
    { header: 'Amount', weight: 2.5, align: 'right' },
  ];
  const { income, expenditure } = report.data.assessment;
  const parts: Array<[string, Figure]> = [
    ['Total income (credits in the income bucket)', income.total],
    ['Essential expenditure (debits in the essentials bucket)', expenditure.essential],
    ['Non-essential expenditure (debits in the non-essentials bucket)', expenditure.non_essential],
  ];
  for (const [title, figure] of parts) {
    const rows = (figure.by_bucket_l2 ?? []).map((b) => [label(b.bucket_l2), formatCount(b.transaction_count), moneyCell(b.amount.value, currency)]);
    page.ensureSpace(15 * (Math.min(rows.length, 6) + 3) + 30);
    page.heading(title, 10);
    if (rows.length === 0) page.paragraph('No transactions in this period.', { size: 9 });
    else drawTable(page, columns, rows, { totalRow: ['Total', formatCount(figure.transaction_count), moneyCell(figure.overall_total.value, currency, true)] });
  }
  page.ensureSpace(50);
  page.heading('Net income (income minus essential expenditure)', 10);
  page.paragraph(
    `Net income ${formatMoney(income.net.overall_total.value, currency)} = total income ${formatMoney(income.total.overall_total.value, currency)} ` +
      `(${formatCount(income.total.transaction_count)} transactions) - essential expenditure ` +
      `${formatMoney(expenditure.essential.overall_total.value, currency)} (${formatCount(expenditure.essential.transaction_count)} transactions).`,
    { size: 9 },
  );
}
