import { Decimal } from 'decimal.js';
import { formatMoney, isNegative, longMonth } from './pdf-format.js';
import { COLOURS, type PdfPage } from './pdf-layout.js';
import { drawTable, moneyCell, type Cell, type Column } from './pdf-table.js';
import type { InsightsData, RiskSignal } from './insights-model.js';

/**
 * Page 1's decision view: what the customer earns (verified and not), what
 * is committed and what is flexible, what is left (a deficit in red, said
 * in words), and a box of the risk signals with their values, thresholds
 * and flags. Every amount is an insights figure, formatted for reading.
 */

interface Tile {
  title: string;
  lead: string;
  leadColour?: string;
  lines: Array<[string, string]>;
  note?: string;
  band?: string;
}

const TILE_HEIGHT = 92;

/** The sum of two amounts, exactly (decimal.js, never a float). */
function sum(a: string, b: string): string {
  return new Decimal(a).plus(b).toFixed(2);
}

function drawTile(page: PdfPage, tile: Tile, x: number, y: number, width: number): void {
  const { doc } = page;
  doc.rect(x, y, width, TILE_HEIGHT).fill(tile.band ?? COLOURS.band);
  page.cell(tile.title, x + 8, y + 7, width - 16, { bold: true, size: 8.5, colour: COLOURS.muted });
  page.cell(tile.lead, x + 8, y + 20, width - 16, { bold: true, size: 15, colour: tile.leadColour });
  let ly = y + 42;
  for (const [label, value] of tile.lines) {
    page.cell(label, x + 8, ly, width * 0.5, { size: 8 });
    page.cell(value, x + width * 0.45, ly, width * 0.55 - 8, { size: 8, align: 'right', colour: isNegative(value.replace(/[^\d.-]/g, '')) ? COLOURS.negative : undefined });
    ly += 11;
  }
  if (tile.note) page.cell(tile.note, x + 8, y + TILE_HEIGHT - 13, width - 16, { size: 7.5, bold: true, colour: COLOURS.negative });
}

export function decisionTiles(page: PdfPage, insights: InsightsData): void {
  const c = insights.currency;
  const m = (v: string) => formatMoney(v, c);
  const { income, expenditure, disposable_income: disposable } = insights;
  page.heading('Decision summary', 13);
  page.ensureSpace(TILE_HEIGHT + 10);
  const deficit = disposable.deficit;
  const deficitMonths = disposable.deficit_months.length;
  const tiles: Tile[] = [
    {
      // An underwriter lends on verified income: it leads, the unverified rest is shown beside.
      title: 'VERIFIED INCOME A MONTH',
      lead: m(income.verified.predicted_monthly.value),
      lines: [
        ['Verified', `${m(income.verified.predicted_monthly.value)} a month`],
        ['Unverified', `${m(income.unverified.predicted_monthly.value)} a month`],
        ['Received in the period', m(income.total.overall_total.value)],
      ],
    },
    {
      title: 'SPENDING A MONTH',
      lead: m(sum(expenditure.fixed.predicted_monthly.value, expenditure.flexible.predicted_monthly.value)),
      lines: [
        ['Committed', `${m(expenditure.fixed.predicted_monthly.value)} a month`],
        ['Flexible', `${m(expenditure.flexible.predicted_monthly.value)} a month`],
        ['Spent in the period', m(expenditure.total.overall_total.value)],
      ],
    },
    {
      title: deficit ? 'DISPOSABLE INCOME: DEFICIT' : 'DISPOSABLE INCOME',
      lead: m(disposable.monthly_average.value),
      leadColour: deficit ? COLOURS.negative : undefined,
      band: deficit ? COLOURS.flagBand : COLOURS.okBand,
      lines: [
        ['Monthly average', m(disposable.monthly_average.value)],
        ['Over the period', m(disposable.overall_total.value)],
        ['Months in deficit', `${deficitMonths} of ${insights.months_assessed.count}`],
      ],
      note: deficit
        ? 'Spending exceeds income'
        : deficitMonths ? `Deficit in ${disposable.deficit_months.map(longMonth).join(', ')}` : undefined,
    },
  ];
  const gap = 8;
  const width = (page.width - gap * (tiles.length - 1)) / tiles.length;
  tiles.forEach((tile, i) => drawTile(page, tile, page.left + i * (width + gap), page.y, width));
  page.y += TILE_HEIGHT + 6;
  page.paragraph(
    'Verified income a month: the predicted monthly amount of the regular streams paid in 3 or more months; unverified is the rest. ' +
      'Committed spending: rent or mortgage, council tax, utilities, loan and card repayments, insurance, subscriptions and buy now, pay later; ' +
      'flexible is all other spending. Disposable income is income minus all spending (transfers between own accounts left out).',
    { size: 7.5 },
  );
}

/** A signal's value in words: '11.40%', '2', '11 days'. */
export function signalValue(signal: RiskSignal, currency: string): string {
  switch (signal.unit) {
    case 'percent':
      return `${signal.value}%`;
    case 'days':
      return `${signal.value} day${signal.value === '1' ? '' : 's'}`;
    case 'amount':
      return formatMoney(signal.value, currency);
    default:
      return signal.value;
  }
}

function thresholdText(signal: RiskSignal, currency: string): string {
  return `${signalValue({ ...signal, value: signal.threshold }, currency)} or more`;
}

function detailText(signal: RiskSignal, currency: string): string {
  const deepest = signal.detail?.deepest_balance;
  if (deepest) return `lowest ${formatMoney(deepest.value, currency)}`;
  const fees = signal.detail?.fees;
  if (fees && fees.transaction_count > 0) return `fees ${formatMoney(fees.amount.value, currency)}`;
  return '';
}

export function riskFlags(page: PdfPage, insights: InsightsData): void {
  const c = insights.currency;
  const flagged = insights.risk_signals.filter((s) => s.flagged).length;
  page.heading(`Risk flags: ${flagged} of ${insights.risk_signals.length} raised`, 12);
  const columns: Column[] = [
    { header: 'Signal', weight: 4.2, align: 'left' },
    { header: 'Value', weight: 1.4, align: 'right' },
    { header: 'Flag at', weight: 1.6, align: 'right' },
    { header: 'Amount', weight: 1.6, align: 'right' },
    { header: 'Detail', weight: 2.2, align: 'left' },
    { header: 'Flag', weight: 1.2, align: 'left' },
  ];
  const rows = insights.risk_signals.map((s): Cell[] => [
    s.label,
    { text: signalValue(s, c), bold: s.flagged, colour: s.flagged ? COLOURS.flag : undefined },
    thresholdText(s, c),
    moneyCell(s.amount.value, c),
    detailText(s, c),
    s.flagged ? { text: 'RAISED', bold: true, colour: COLOURS.flag } : { text: 'clear', colour: COLOURS.muted },
  ]);
  drawTable(page, columns, rows, { size: 8.5 });
  if (flagged) page.paragraph('Each raised flag lists the transactions behind it in the appendix at the end of this report.', { size: 7.5 });
}
