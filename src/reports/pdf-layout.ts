import PDFDocument from 'pdfkit';
import { pdfFonts } from './pdf-fonts.js';

/**
 * A4 page layout for the report: a cursor that moves down the page, headings,
 * notes and tables whose money columns are right-aligned. Positions are set
 * by hand rather than by pdfkit's text flow, so that a table never breaks a
 * row across pages and the columns line up.
 */

export const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 42;
const FOOTER_SPACE = 30;

export const COLOURS = {
  text: '#1f2933',
  muted: '#616e7c',
  rule: '#cbd2d9',
  band: '#f0f4f8',
  income: '#2f855a',
  essential: '#c05621',
  nonEssential: '#2b6cb0',
} as const;

export type Align = 'left' | 'right' | 'center';

export interface Column {
  header: string;
  /** Share of the table width. */
  weight: number;
  align: Align;
}

export interface TableOptions {
  /** A last row set in bold above a rule: totals. */
  totalRow?: readonly string[];
  rowHeight?: number;
}

export class PdfPage {
  readonly doc: PDFKit.PDFDocument;
  readonly left = MARGIN;
  readonly width = A4.width - 2 * MARGIN;
  y = MARGIN;

  constructor(info: { title: string; subject: string; author: string }) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
      bufferPages: true,
      // No default font: pdfkit would parse Helvetica's metrics for every document, and all text uses DejaVu.
      font: '',
      info: { Title: info.title, Subject: info.subject, Author: info.author, Creator: info.author },
    });
    const fonts = pdfFonts();
    this.doc.registerFont('regular', fonts.regular);
    this.doc.registerFont('bold', fonts.bold);
    this.doc.font('regular').fillColor(COLOURS.text);
  }

  get bottom(): number {
    return A4.height - MARGIN - FOOTER_SPACE;
  }

  /** Starts a new page when fewer than `height` points are left on this one. */
  ensureSpace(height: number): void {
    if (this.y + height > this.bottom) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = MARGIN;
  }

  /** One line of text at (x, y) within `width`; never wraps, never moves pdfkit's own cursor onto a new page. */
  cell(text: string, x: number, y: number, width: number, opts: { align?: Align; bold?: boolean; size?: number; colour?: string } = {}): void {
    const size = opts.size ?? 9;
    this.doc
      .font(opts.bold ? 'bold' : 'regular')
      .fontSize(size)
      .fillColor(opts.colour ?? COLOURS.text)
      // A height of one line with ellipsis keeps a long value on its line, cut short with '…'.
      .text(text, x, y, { width, height: size * 1.25, align: opts.align ?? 'left', ellipsis: true });
  }

  heading(text: string, size = 12): void {
    this.ensureSpace(size * 3);
    this.y += size * 0.6;
    this.cell(text, this.left, this.y, this.width, { bold: true, size });
    this.y += size * 1.6;
  }

  /** Wrapped text in the muted colour, for notes and definitions. */
  paragraph(text: string, opts: { size?: number; indent?: number } = {}): void {
    const size = opts.size ?? 8.5;
    const indent = opts.indent ?? 0;
    const width = this.width - indent;
    this.doc.font('regular').fontSize(size);
    const height = this.doc.heightOfString(text, { width });
    this.ensureSpace(height + 4);
    this.doc.fillColor(COLOURS.muted).text(text, this.left + indent, this.y, { width });
    this.y += height + 4;
  }

  /** Label/value pairs in two columns of pairs. */
  keyValues(pairs: ReadonlyArray<readonly [string, string]>): void {
    // The left pairs carry the long values (period, accounts): give them more room.
    const columns = [
      { x: this.left, width: this.width * 0.6 },
      { x: this.left + this.width * 0.6, width: this.width * 0.4 },
    ];
    const labelWidth = 62;
    for (let i = 0; i < pairs.length; i += 2) {
      this.ensureSpace(15);
      pairs.slice(i, i + 2).forEach(([label, value], j) => {
        const column = columns[j] ?? columns[0]!;
        this.cell(label, column.x, this.y, labelWidth, { colour: COLOURS.muted });
        this.cell(value, column.x + labelWidth, this.y, column.width - labelWidth - 8);
      });
      this.y += 15;
    }
  }

  table(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, opts: TableOptions = {}): void {
    const rowHeight = opts.rowHeight ?? 15;
    const totalWeight = columns.reduce((s, c) => s + c.weight, 0);
    const widths = columns.map((c) => (c.weight / totalWeight) * this.width);
    const pad = 5;
    const drawRow = (cells: readonly string[], bold: boolean): void => {
      let x = this.left;
      cells.forEach((text, i) => {
        const w = widths[i] ?? 0;
        this.cell(text, x + pad, this.y + 3.5, w - 2 * pad, { align: columns[i]?.align, bold });
        x += w;
      });
      this.y += rowHeight;
    };
    const drawHeader = (): void => {
      this.doc.rect(this.left, this.y, this.width, rowHeight).fill(COLOURS.band);
      drawRow(columns.map((c) => c.header), true);
      this.rule();
    };
    this.ensureSpace(rowHeight * 3);
    drawHeader();
    rows.forEach((row) => {
      if (this.y + rowHeight > this.bottom) {
        this.newPage();
        drawHeader();
      }
      drawRow(row, false);
    });
    if (opts.totalRow) {
      this.ensureSpace(rowHeight + 2);
      this.rule();
      drawRow(opts.totalRow, true);
    }
    this.rule();
    this.y += 6;
  }

  rule(): void {
    this.doc.moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(0.6).strokeColor(COLOURS.rule).stroke();
  }

  /** Writes `left` and `right` at the foot of every page; call once all pages exist. */
  footers(left: string, right: (page: number, pages: number) => string): void {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      // The footer sits inside the bottom margin; lift the margin so pdfkit does not start a page for it.
      const margins = this.doc.page.margins;
      const saved = margins.bottom;
      margins.bottom = 0;
      const y = A4.height - MARGIN - 10;
      this.cell(left, this.left, y, this.width * 0.75, { size: 7.5, colour: COLOURS.muted });
      this.cell(right(i + 1, range.count), this.left + this.width * 0.75, y, this.width * 0.25, { size: 7.5, colour: COLOURS.muted, align: 'right' });
      margins.bottom = saved;
    }
  }

  /** The finished document as bytes. */
  finish(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    this.doc.end();
    return done;
  }
}
