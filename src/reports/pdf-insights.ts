import { formatMoney, shortDate } from './pdf-format.js';
import { label } from './pdf-labels.js';
import type { PdfPage } from './pdf-layout.js';
import { drawTable, moneyCell, type Cell, type Column } from './pdf-table.js';
import type { EvidenceRow } from './report-evidence.js';
import { signalKeys } from './report-evidence.js';
import { signalValue } from './pdf-decision.js';
import type { InsightsData, RiskSignal } from './insights-model.js';

/**
 * The insights behind the decision view: each income stream and each
 * commitment with its frequency, months, next expected date and monthly
 * amount; and, as an appendix, the transactions behind every raised flag.
 */

export function incomeStreams(page: PdfPage, insights: InsightsData): void {
  const c = insights.currency;
  page.heading('Income streams', 12);
  if (insights.income.streams.length === 0) {
    page.paragraph('No income in this period.', { size: 9 });
    return;
  }
  const columns: Column[] = [
    { header: 'Stream', weight: 3.7, align: 'left' },
    { header: 'Source', weight: 1.1, align: 'left' },
    { header: 'Frequency', weight: 1.7, align: 'left' },
    { header: 'Months', weight: 1.3, align: 'right' },
    { header: 'Next expected', weight: 1.8, align: 'right' },
    { header: 'A month', weight: 1.6, align: 'right' },
    { header: 'In the period', weight: 1.8, align: 'right' },
    { header: 'Verified', weight: 1.1, align: 'left' },
  ];
  const rows = insights.income.streams.map((s): Cell[] => [
    s.name, label(s.source), label(s.frequency), String(s.months_present.length),
    s.next_expected_date ? shortDate(s.next_expected_date) : 'not regular',
    moneyCell(s.predicted_monthly.value, c), moneyCell(s.total.overall_total.value, c), s.verified ? 'yes' : 'no',
  ]);
  drawTable(page, columns, rows, {
    size: 8,
    rowHeight: 14,
    totalRow: ['Total', '', '', '', '', '', moneyCell(insights.income.total.overall_total.value, c, true), ''],
  });
}

export function commitments(page: PdfPage, insights: InsightsData): void {
  const c = insights.currency;
  page.heading('Committed expenditure', 12);
  if (insights.expenditure.commitments.length === 0) {
    page.paragraph('No committed expenditure in this period.', { size: 9 });
    return;
  }
  const columns: Column[] = [
    { header: 'Paid to', weight: 3.4, align: 'left' },
    { header: 'Kind', weight: 1.8, align: 'left' },
    { header: 'Frequency', weight: 1.7, align: 'left' },
    { header: 'Months', weight: 1, align: 'right' },
    { header: 'Next expected', weight: 1.8, align: 'right' },
    { header: 'A month', weight: 1.7, align: 'right' },
    { header: 'In the period', weight: 1.9, align: 'right' },
  ];
  const rows = insights.expenditure.commitments.map((k): Cell[] => [
    k.name, label(k.kind), label(k.frequency), String(k.months_present.length),
    k.next_expected_date ? shortDate(k.next_expected_date) : 'not regular',
    moneyCell(k.predicted_monthly.value, c), moneyCell(k.total.overall_total.value, c),
  ]);
  const fixed = insights.expenditure.fixed;
  drawTable(page, columns, rows, {
    size: 8,
    rowHeight: 14,
    totalRow: ['Total', '', '', '', '', moneyCell(fixed.predicted_monthly.value, c, true), moneyCell(fixed.total.overall_total.value, c, true)],
  });
}

function evidenceTable(page: PdfPage, rows: readonly EvidenceRow[], total: string, currency: string, withBalance: boolean): void {
  const columns: Column[] = [
    { header: 'Date', weight: 1.5, align: 'left' },
    { header: 'Description', weight: 5, align: 'left' },
    { header: 'In or out', weight: 1.2, align: 'left' },
    { header: 'Amount', weight: 1.8, align: 'right' },
    ...(withBalance ? [{ header: 'Balance after', weight: 1.8, align: 'right' } as Column] : []),
  ];
  const cells = rows.map((r): Cell[] => [
    shortDate(r.date), r.description, r.direction === 'credit' ? 'in' : 'out', formatMoney(r.amount, currency),
    ...(withBalance ? [r.running_balance === null ? '' : moneyCell(r.running_balance, currency)] : []),
  ]);
  const totalRow: Cell[] = ['Total', `${rows.length} transaction${rows.length === 1 ? '' : 's'}`, '', formatMoney(total, currency), ...(withBalance ? [''] : [])];
  drawTable(page, columns, cells, { size: 8, rowHeight: 13, totalRow });
}

/** For every raised flag, the transactions behind it: the same ones its link lists, summing to its amount. */
export function flagEvidence(page: PdfPage, insights: InsightsData, evidence: readonly EvidenceRow[]): void {
  const raised = insights.risk_signals.filter((s) => s.flagged);
  if (raised.length === 0) return;
  const c = insights.currency;
  page.ensureSpace(160);
  page.heading('Appendix: the transactions behind each raised flag', 13);
  const having = (keys: readonly string[]) => evidence.filter((r) => r.keys.some((k) => keys.includes(k)));
  for (const signal of raised) {
    const { main, fees } = signalKeys(signal);
    page.ensureSpace(90);
    page.heading(`${signal.label}: ${signalValue(signal, c)} (flag at ${signalValue({ ...signal, value: signal.threshold } as RiskSignal, c)})`, 10);
    evidenceTable(page, having(main), signal.amount.value, c, signal.name === 'days_in_overdraft');
    const feeFigure = signal.detail?.fees;
    if (feeFigure && fees.length) {
      page.ensureSpace(60);
      page.cell('Fees charged for them', page.left, page.y, page.width, { bold: true, size: 9 });
      page.y += 14;
      evidenceTable(page, having(fees), feeFigure.amount.value, c, false);
    }
  }
}
