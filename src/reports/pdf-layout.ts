import PDFDocument from 'pdfkit';
import { drawableText, needsUnicodeFont, pdfFonts, useStandardFonts } from './pdf-fonts.js';
import { gatherContent } from './pdf-content.js';
import { drawLine, paragraph } from './pdf-text.js';
import { widthOf } from './pdf-text-measure.js';

/**
 * A4 page layout for the report: a cursor that moves down the page, headings,
 * notes and single-line cells. Positions are set by hand rather than by
 * pdfkit's text flow, so that a table never breaks a row across pages and
 * the columns line up. Tables are drawn by pdf-table.ts.
 */

export const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 42;
/** Two footer lines: the report and page number, then the content hash. */
const FOOTER_SPACE = 38;

export const COLOURS = {
  text: '#1f2933',
  muted: '#616e7c',
  rule: '#cbd2d9',
  band: '#f0f4f8',
  income: '#2f855a',
  essential: '#c05621',
  nonEssential: '#2b6cb0',
  negative: '#b91c1c',
  flag: '#b91c1c',
  flagBand: '#fdecec',
  okBand: '#edf7ef',
} as const;

export type Align = 'left' | 'right' | 'center';

export interface CellStyle {
  align?: Align;
  bold?: boolean;
  size?: number;
  colour?: string;
}

export interface DocumentInfo {
  title: string;
  subject: string;
  author: string;
  keywords?: string;
  /** When the document was made; the report's generated_at, so the same report gives the same bytes. */
  created?: Date;
}

export class PdfPage {
  readonly doc: PDFKit.PDFDocument;
  readonly left = MARGIN;
  readonly width = A4.width - 2 * MARGIN;
  y = MARGIN;
  private unicodeFonts = false;
  /** Writes the operators gathered for each page (pdf-content.ts). */
  private readonly writeContent: () => void;

  constructor(info: DocumentInfo) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
      bufferPages: true,
      // Deflating every page costs more than laying it out; the pages are text and lines, a few KB each.
      compress: false,
      // No default font: pdfkit would load Helvetica's metrics a third time.
      font: '',
      info: { Title: info.title, Subject: info.subject, Author: info.author, Creator: info.author, ...(info.keywords ? { Keywords: info.keywords } : {}),
        ...(info.created ? { CreationDate: info.created } : {}) },
    });
    this.writeContent = gatherContent(this.doc);
    useStandardFonts(this.doc);
    this.doc.font('regular').fillColor(COLOURS.text);
  }

  get bottom(): number {
    return A4.height - MARGIN - FOOTER_SPACE;
  }

  /** Selects the font for `text`: Helvetica, or the embedded Unicode font when Helvetica cannot show it. */
  font(text: string, bold = false): PDFKit.PDFDocument {
    if (!needsUnicodeFont(text)) return this.doc.font(bold ? 'bold' : 'regular');
    if (!this.unicodeFonts) {
      const fonts = pdfFonts();
      this.doc.registerFont('unicode', fonts.regular);
      this.doc.registerFont('unicode-bold', fonts.bold);
      this.unicodeFonts = true;
    }
    return this.doc.font(bold ? 'unicode-bold' : 'unicode');
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
  cell(text: string, x: number, y: number, width: number, opts: CellStyle = {}): void {
    const size = opts.size ?? 9;
    // Control characters (a tab or newline in a description) would break the line or show as boxes.
    // eslint-disable-next-line no-control-regex
    const clean = drawableText(text.replace(/[\u0000-\u001f\u007f]+/g, ' '));
    // A height of one line with ellipsis keeps a long value on its line, cut short with '…'.
    drawLine(this.font(clean, opts.bold).fontSize(size), clean, x, y, width, { align: opts.align ?? 'left', height: size * 1.25, colour: opts.colour ?? COLOURS.text });
  }

  /** The width `text` takes in the given style. */
  textWidth(text: string, opts: { bold?: boolean; size?: number } = {}): number {
    return widthOf(this.font(text, opts.bold).fontSize(opts.size ?? 9), text);
  }

  heading(text: string, size = 12): void {
    this.ensureSpace(size * 3);
    this.y += size * 0.6;
    this.cell(text, this.left, this.y, this.width, { bold: true, size });
    this.y += size * 1.6;
  }

  /** Wrapped text, for notes and definitions (muted unless a colour is given). */
  paragraph(text: string, opts: { size?: number; indent?: number; colour?: string; bold?: boolean } = {}): void {
    const size = opts.size ?? 8.5;
    const indent = opts.indent ?? 0;
    const width = this.width - indent;
    // The same notes recur in every report: their lines are wrapped once (pdf-text.ts).
    const shown = drawableText(text);
    const lines = paragraph(this.font(shown, opts.bold).fontSize(size), shown, width);
    this.ensureSpace(lines.height + 4);
    this.doc.fillColor(opts.colour ?? COLOURS.muted);
    lines.draw(this.left + indent, this.y);
    this.y += lines.height + 4;
  }

  /** Label/value pairs in two columns of pairs. */
  keyValues(pairs: ReadonlyArray<readonly [string, string]>, labelWidth = 62): void {
    // The left pairs carry the long values (period, accounts): give them more room.
    const columns = [
      { x: this.left, width: this.width * 0.6 },
      { x: this.left + this.width * 0.6, width: this.width * 0.4 },
    ];
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

  rule(): void {
    this.doc.moveTo(this.left, this.y).lineTo(this.left + this.width, this.y).lineWidth(0.6).strokeColor(COLOURS.rule).stroke();
  }

  /** Writes two lines at the foot of every page: `left` with the page number, then `second`. Call once all pages exist. */
  footers(left: string, right: (page: number, pages: number) => string, second: string): void {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      // The footer sits inside the bottom margin; lift the margin so pdfkit does not start a page for it.
      const margins = this.doc.page.margins;
      const saved = margins.bottom;
      margins.bottom = 0;
      const y = A4.height - MARGIN - 18;
      this.cell(left, this.left, y, this.width * 0.78, { size: 7.5, colour: COLOURS.muted });
      this.cell(right(i + 1, range.count), this.left + this.width * 0.78, y, this.width * 0.22, { size: 7.5, colour: COLOURS.muted, align: 'right' });
      this.cell(second, this.left, y + 10, this.width, { size: 7, colour: COLOURS.muted });
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
    this.writeContent();
    this.doc.end();
    return done;
  }
}
