import { drawBarChart } from './pdf-chart.js';
import { COLOURS, PdfPage, type Column } from './pdf-layout.js';
import { reportFigures, type AffordabilityReport, type Figure } from './report-model.js';

/**
 * The affordability report as an A4 PDF for a lender: header, summary,
 * chart, data sufficiency, month by month, and an appendix by bucket. Every
 * amount printed is the report's own string, so the PDF and the JSON agree
 * to the penny.
 */

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'YYYY-MM' -> 'January 2024'. */
export function longMonth(month: string): string {
  const [y, m] = month.split('-');
  return `${MONTH_NAMES[Number(m) - 1] ?? m} ${y}`;
}

function monthList(months: readonly string[]): string {
  return months.length ? months.join(', ') : 'none';
}

function header(page: PdfPage, report: AffordabilityReport): void {
  const { data, metadata } = report;
  page.cell('Affordability report', page.left, page.y, page.width, { bold: true, size: 18 });
  page.y += 26;
  page.cell(
    `Income and expenditure from connected bank accounts, grouped by the ${metadata.bucket_id} buckets`,
    page.left, page.y, page.width, { size: 9, colour: COLOURS.muted },
  );
  page.y += 20;
  const accounts = data.accounts;
  const restricted = metadata.account_ids ? ' (selected)' : '';
  page.keyValues([
    ['Customer', metadata.customer_id],
    ['Client', metadata.client_id],
    ['Period', `${longMonth(metadata.month_from)} to ${longMonth(metadata.month_to)} (${data.months_assessed.count} months)`],
    ['Currency', metadata.currency],
    ['Accounts', `${accounts.connected}${restricted}: ${accounts.account_ids.join(', ') || 'none'}`],
    ['Holders', accounts.holder_names.join(', ') || 'not known'],
    ['Generated', metadata.generated_at],
    ['Generator', `${metadata.generator.name} ${metadata.generator.version}`],
  ]);
  page.y += 4;
  page.rule();
}

function summary(page: PdfPage, report: AffordabilityReport): void {
  page.heading('Summary');
  const columns: Column[] = [
    { header: 'Figure', weight: 4, align: 'left' },
    { header: `Total (${report.metadata.currency})`, weight: 2, align: 'right' },
    { header: 'Monthly average', weight: 2, align: 'right' },
    { header: 'Transactions', weight: 1.5, align: 'right' },
  ];
  const rows = reportFigures(report.data).map(({ label, figure }) => [
    label,
    figure.overall_total.value,
    figure.monthly_average.value,
    String(figure.transaction_count),
  ]);
  page.table(columns, rows);
}

function chart(page: PdfPage, report: AffordabilityReport): void {
  page.heading('Income against spending, month by month');
  const { income, expenditure } = report.data.assessment;
  const values = (f: Figure) => f.monthly_totals.map((m) => m.amount.value);
  drawBarChart(page, income.total.monthly_totals.map((m) => m.month), [
    { label: 'Income', colour: COLOURS.income, values: values(income.total) },
    { label: 'Essential expenditure', colour: COLOURS.essential, values: values(expenditure.essential) },
    { label: 'Non-essential expenditure', colour: COLOURS.nonEssential, values: values(expenditure.non_essential) },
  ]);
}

function sufficiency(page: PdfPage, report: AffordabilityReport): void {
  const { data } = report;
  const missing = data.accounts.missing_data;
  const coverage = data.data_coverage;
  page.heading('Data sufficiency');
  const notes = [
    `Months assessed: ${data.months_assessed.count} (${data.months_assessed.start} to ${data.months_assessed.end}).`,
    `Months with any transaction: ${coverage.count} of ${data.months_assessed.count}` +
      (coverage.count ? ` (${coverage.start} to ${coverage.end}: ${monthList(coverage.months_with_data)}).` : '.'),
    `Months with no income: ${monthList(missing.income_months)}.`,
    `Months with no expenditure at all: ${monthList(missing.expenditure_months)}.`,
    `Accounts connected: ${data.accounts.connected}.`,
  ];
  for (const note of notes) page.paragraph(`•  ${note}`, { size: 9 });
  page.y += 2;
  page.paragraph(
    'How the figures are made: income is the credits in the income bucket; essential and non-essential expenditure are the ' +
      'debits in the essentials and non_essentials buckets; net income is income minus essential expenditure. Transfers between ' +
      "the customer's own accounts and refunds are not income, and refunds do not reduce expenditure. Declined transactions are " +
      `left out; pending ones count. Only transactions in ${report.metadata.currency} are included. Monthly averages divide by ` +
      'every month of the period, empty months included, and round half-up to the penny.',
  );
}

function monthByMonth(page: PdfPage, report: AffordabilityReport): void {
  const { income, expenditure } = report.data.assessment;
  const missing = report.data.accounts.missing_data;
  const withData = new Set(report.data.data_coverage.months_with_data);
  page.heading('Month by month');
  const columns: Column[] = [
    { header: 'Month', weight: 2.2, align: 'left' },
    { header: 'Income', weight: 2, align: 'right' },
    { header: 'Essential', weight: 2, align: 'right' },
    { header: 'Non-essential', weight: 2, align: 'right' },
    { header: 'Net income', weight: 2, align: 'right' },
    { header: 'Notes', weight: 2.4, align: 'left' },
  ];
  const rows = income.total.monthly_totals.map((m, i) => {
    const notes = !withData.has(m.month)
      ? 'no transactions'
      : [missing.income_months.includes(m.month) ? 'no income' : '', missing.expenditure_months.includes(m.month) ? 'no expenditure' : '']
          .filter(Boolean)
          .join(', ');
    return [
      longMonth(m.month),
      m.amount.value,
      expenditure.essential.monthly_totals[i]?.amount.value ?? '',
      expenditure.non_essential.monthly_totals[i]?.amount.value ?? '',
      income.net.monthly_totals[i]?.amount.value ?? '',
      notes,
    ];
  });
  const total = ['Total', income.total, expenditure.essential, expenditure.non_essential, income.net].map((f) =>
    typeof f === 'string' ? f : f.overall_total.value,
  );
  page.table(columns, rows, { totalRow: [...total, ''] });
}

function appendix(page: PdfPage, report: AffordabilityReport): void {
  page.heading('Appendix: each figure by bucket', 13);
  const columns: Column[] = [
    { header: 'Bucket', weight: 5, align: 'left' },
    { header: 'Transactions', weight: 2, align: 'right' },
    { header: `Amount (${report.metadata.currency})`, weight: 2.5, align: 'right' },
  ];
  const { income, expenditure } = report.data.assessment;
  const parts: Array<[string, Figure]> = [
    ['Total income (income bucket, credits)', income.total],
    ['Essential expenditure (essentials bucket, debits)', expenditure.essential],
    ['Non-essential expenditure (non_essentials bucket, debits)', expenditure.non_essential],
  ];
  for (const [title, figure] of parts) {
    const rows = (figure.by_bucket_l2 ?? []).map((b) => [b.bucket_l2, String(b.transaction_count), b.amount.value]);
    page.ensureSpace(15 * (Math.min(rows.length, 6) + 3) + 30);
    page.heading(title, 10);
    if (rows.length === 0) page.paragraph('No transactions in this period.', { size: 9 });
    else page.table(columns, rows, { totalRow: ['Total', String(figure.transaction_count), figure.overall_total.value] });
  }
  // A sentence rather than a table: net income has no buckets of its own, and a year's report then ends on page 2.
  page.ensureSpace(50);
  page.heading('Net income (income minus essential expenditure)', 10);
  const currency = report.metadata.currency;
  page.paragraph(
    `Net income ${income.net.overall_total.value} ${currency} = total income ${income.total.overall_total.value} ` +
      `(${income.total.transaction_count} transactions) - essential expenditure ${expenditure.essential.overall_total.value} ` +
      `(${expenditure.essential.transaction_count} transactions).`,
    { size: 9 },
  );
}

/** Renders the report; resolves to the PDF's bytes. */
export async function renderReportPdf(report: AffordabilityReport): Promise<Buffer> {
  const { metadata } = report;
  const page = new PdfPage({
    title: `Affordability report: ${metadata.customer_id}, ${metadata.month_from} to ${metadata.month_to}`,
    subject: `Affordability report for customer ${metadata.customer_id} of client ${metadata.client_id}`,
    author: `${metadata.generator.name} ${metadata.generator.version}`,
  });
  header(page, report);
  summary(page, report);
  chart(page, report);
  sufficiency(page, report);
  page.newPage();
  monthByMonth(page, report);
  appendix(page, report);
  page.footers(
    `Affordability report · ${metadata.customer_id} · ${metadata.month_from} to ${metadata.month_to} · ${metadata.generator.name} ${metadata.generator.version}`,
    (n, of) => `Page ${n} of ${of}`,
  );
  return page.finish();
}
