import { COLOURS, type PdfPage } from './pdf-layout.js';
import { widthOf } from './pdf-text-measure.js';

/**
 * A grouped bar chart: one group per month, one bar per series. Amounts
 * become numbers here only to place bars on the page; every figure printed
 * as text comes from the report's strings.
 */

export interface ChartSeries {
  label: string;
  colour: string;
  /** Money strings, one per month. */
  values: readonly string[];
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'YYYY-MM' -> 'Jan 24'. */
export function shortMonth(month: string): string {
  const [y, m] = month.split('-');
  return `${SHORT_MONTHS[Number(m) - 1] ?? m} ${y?.slice(2)}`;
}

/** A round step (1, 2 or 5 times a power of ten) that splits `max` into about `ticks` parts. */
export function niceStep(max: number, ticks = 4): number {
  if (max <= 0) return 1;
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  const factor = scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10;
  return factor * power;
}

export function drawBarChart(page: PdfPage, months: readonly string[], series: readonly ChartSeries[], height = 190, axisLabel: (v: number) => string = (v) => String(Math.round(v))): void {
  const { doc } = page;
  const legendHeight = 16;
  page.ensureSpace(height + legendHeight + 24);

  // Legend
  let lx = page.left;
  for (const s of series) {
    doc.rect(lx, page.y + 2, 9, 9).fill(s.colour);
    page.cell(s.label, lx + 13, page.y + 2, 130, { size: 8 });
    lx += 20 + widthOf(doc.font('regular').fontSize(8), s.label) + 14;
  }
  page.y += legendHeight;

  const axisWidth = 44;
  const plotLeft = page.left + axisWidth;
  const plotWidth = page.width - axisWidth;
  const plotTop = page.y + 4;
  const plotHeight = height - 20;
  const plotBottom = plotTop + plotHeight;

  const numbers = series.map((s) => s.values.map((v) => Math.max(Number(v), 0)));
  const max = Math.max(0, ...numbers.flat());
  const step = niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const yOf = (value: number): number => plotBottom - (value / top) * plotHeight;

  // Gridlines and axis labels
  for (let v = 0; v <= top + step / 2; v += step) {
    const y = yOf(v);
    doc.moveTo(plotLeft, y).lineTo(plotLeft + plotWidth, y).lineWidth(v === 0 ? 0.8 : 0.4).strokeColor(COLOURS.rule).stroke();
    page.cell(axisLabel(v), page.left, y - 4, axisWidth - 6, { size: 7, colour: COLOURS.muted, align: 'right' });
  }

  // Bars
  const groupWidth = plotWidth / Math.max(months.length, 1);
  const groupPad = Math.min(groupWidth * 0.18, 14);
  const barWidth = (groupWidth - 2 * groupPad) / Math.max(series.length, 1);
  // Long ranges: label every n-th month, so that labels (about 30 pt wide) never overlap.
  const labelEvery = Math.max(1, Math.ceil(30 / groupWidth));
  months.forEach((month, i) => {
    const gx = plotLeft + i * groupWidth + groupPad;
    numbers.forEach((values, j) => {
      const value = values[i] ?? 0;
      const y = yOf(value);
      const h = plotBottom - y;
      if (h > 0) doc.rect(gx + j * barWidth, y, Math.max(barWidth - 1, 0.5), h).fill(series[j]?.colour ?? COLOURS.muted);
    });
    if (i % labelEvery === 0) {
      const centre = plotLeft + (i + 0.5) * groupWidth;
      page.cell(shortMonth(month), centre - 20, plotBottom + 4, 40, { size: 7, colour: COLOURS.muted, align: 'center' });
    }
  });
  page.y = plotBottom + 20;
}
