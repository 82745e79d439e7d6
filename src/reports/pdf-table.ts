import { formatMoney, isNegative } from './pdf-format.js';
import { COLOURS, type Align, type PdfPage } from './pdf-layout.js';

/**
 * Tables on the report's pages: a shaded header row (repeated on a new page),
 * right-aligned money columns, an optional bold total row. A cell may carry
 * its own colour (a negative amount in red) or weight.
 */

export interface Column {
  header: string;
  /** Share of the table width. */
  weight: number;
  align: Align;
}

export type Cell = string | { text: string; colour?: string; bold?: boolean };

export interface TableOptions {
  /** A last row set in bold above a rule: totals. */
  totalRow?: readonly Cell[];
  rowHeight?: number;
  size?: number;
}

const textOf = (cell: Cell): string => (typeof cell === 'string' ? cell : cell.text);

/** An amount as a person reads it, in red when negative. */
export function moneyCell(value: string, currency: string, bold = false): Cell {
  return { text: formatMoney(value, currency), colour: isNegative(value) ? COLOURS.negative : undefined, bold };
}

export function drawTable(page: PdfPage, columns: readonly Column[], rows: ReadonlyArray<readonly Cell[]>, opts: TableOptions = {}): void {
  const rowHeight = opts.rowHeight ?? 15;
  const size = opts.size ?? 9;
  const totalWeight = columns.reduce((s, c) => s + c.weight, 0);
  const widths = columns.map((c) => (c.weight / totalWeight) * page.width);
  const pad = 5;
  const drawRow = (cells: readonly Cell[], bold: boolean): void => {
    let x = page.left;
    cells.forEach((cell, i) => {
      const w = widths[i] ?? 0;
      const style: { colour?: string; bold?: boolean } = typeof cell === 'string' ? {} : cell;
      page.cell(textOf(cell), x + pad, page.y + (rowHeight - size) / 2, w - 2 * pad, {
        align: columns[i]?.align,
        bold: bold || style.bold,
        size,
        colour: style.colour,
      });
      x += w;
    });
    page.y += rowHeight;
  };
  const drawHeader = (): void => {
    page.doc.rect(page.left, page.y, page.width, rowHeight).fill(COLOURS.band);
    drawRow(columns.map((c) => c.header), true);
    page.rule();
  };
  page.ensureSpace(rowHeight * 3);
  drawHeader();
  rows.forEach((row) => {
    if (page.y + rowHeight > page.bottom) {
      page.newPage();
      drawHeader();
    }
    drawRow(row, false);
  });
  if (opts.totalRow) {
    page.ensureSpace(rowHeight + 2);
    page.rule();
    drawRow(opts.totalRow, true);
  }
  page.rule();
  page.y += 6;
}
