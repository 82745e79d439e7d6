import type { FontObject } from './pdf-fonts.js';
import { oneLine, perFontAndText, remember, widthOf } from './pdf-text-measure.js';
import { num, standardMetrics } from './pdf-standard-metrics.js';

/**
 * Text on the report's pages, set without pdfkit's line wrapper. pdfkit's
 * `doc.text()` builds a LineWrapper (an event emitter) for every call,
 * measures every word through the font's glyph tables, and measures a
 * right-aligned line again to place it: for a report of a few hundred table
 * cells that is half of its time. So here:
 *
 * - a string's advance width is the sum pdfkit makes (widths and kerning),
 *   from a standard font's tables by character (pdf-standard-metrics.ts);
 * - a cell is laid out the way pdfkit lays out one line of at most one line
 *   height with an ellipsis: the same words (pdfkit's own line breaker), the
 *   same fit test, the same cut to '…';
 * - the line is written with the very operators pdfkit writes, the glyph
 *   string of a standard font made from the same tables;
 * - a paragraph's lines are kept per font, size, width and text, and drawn
 *   again without wrapping.
 *
 * The page is byte for byte what pdfkit's text() makes. Whatever this does
 * not handle the same way (a word longer than its cell, a forced line break,
 * a soft hyphen) goes to pdfkit's text() as before. Widths and the fitting
 * of a line are pdf-text-measure.ts's; this file writes the lines.
 */

interface Document {
  _font: FontObject;
  _fontSize: number;
  _lineGap?: number;
  x: number;
  y: number;
  page: { height: number; fonts: Record<string, unknown> };
  addContent(data: string): Document;
  save(): Document;
  restore(): Document;
  transform(m11: number, m12: number, m21: number, m22: number, dx: number, dy: number): Document;
  _fragment(text: string, x: number, y: number, options: FragmentOptions): void;
  text(text: string, x: number, y: number, options: object): Document;
}

type Align = 'left' | 'right' | 'center';

interface FragmentOptions {
  align?: Align;
  width: number;
  lineWidth: number;
  textWidth: number;
  wordCount: number;
}

/** Per standard font, the glyph string (TJ operator) of a text: it depends on the text alone, never on the size or place. */
const glyphRuns = new Map<string, Map<string, string>>();

/** From the font's tables; should pdfkit's font object ever differ from what they read, from its encode(), kept per string. */
function glyphRun(font: FontObject, text: string): string {
  return standardMetrics(font)?.glyphRun(text) ?? perFontAndText(glyphRuns, font, text, () => glyphRunOf(font, text));
}

function glyphRunOf(font: FontObject, text: string): string {
  const [encoded, positions] = font.encode(text);
  const commands: string[] = [];
  let last = 0;
  const segment = (cur: number): void => {
    if (last < cur) {
      const pos = positions[cur - 1]!;
      commands.push(`<${encoded.slice(last, cur).join('')}> ${num(-(pos.xAdvance - pos.advanceWidth))}`);
    }
    last = cur;
  };
  for (let i = 0; i < positions.length; i++) {
    const pos = positions[i]!;
    if (pos.xAdvance - pos.advanceWidth !== 0) segment(i + 1);
  }
  segment(positions.length);
  return commands.length ? `[${commands.join(' ')}] TJ` : '';
}

/** Standard (AFM) fonts have no glyph offsets and no per-document state in their encoding; embedded fonts have both. */
const isStandard = (font: FontObject): boolean => !('subset' in font);

/**
 * One line at (x, y) as pdfkit's _fragment writes it (left, right or
 * centred in `options.lineWidth`), after `prefix` (operators that go
 * before it). A standard font's line goes into the page as one piece of
 * text, its operators joined by newlines as pdfkit joins them. pdfkit's
 * save, transform and restore around the text leave its matrix as it was,
 * so they are written, not run.
 */
function fragment(doc: PDFKit.PDFDocument, raw: string, x: number, y: number, options: FragmentOptions, prefix = ''): void {
  const d = doc as unknown as Document;
  const text = raw.includes('\n') ? raw.replace(/\n/g, '') : raw;
  const font = d._font;
  if (text.length === 0 || !isStandard(font)) {
    if (prefix) d.addContent(prefix);
    d._fragment(text, x, y, options);
    return;
  }
  if (options.align === 'right') x += options.lineWidth - widthOf(doc, text.replace(/\s+$/, ''));
  else if (options.align === 'center') x += options.lineWidth / 2 - options.textWidth / 2;
  const size = d._fontSize;
  const dy = (font.ascender / 1000) * size;
  const height = d.page.height;
  const baseline = height - y - dy;
  if (d.page.fonts[font.id] == null) d.page.fonts[font.id] = font.ref();
  const run = glyphRun(font, text);
  d.addContent(`${prefix ? `${prefix}\n` : ''}q\n1 0 0 -1 0 ${num(height)} cm\nBT\n1 0 0 1 ${num(x)} ${num(baseline)} Tm\n/${font.id} ${num(size)} Tf\n${run ? `${run}\n` : ''}ET\nQ`);
}

/** Per colour, the operators pdfkit's fillColor() writes for it. */
const colourOperators = new Map<string, string>();

/**
 * doc.fillColor(colour), its operators returned rather than written (they go
 * out with the text after them). Only '#rrggbb' colours; others are set by pdfkit.
 */
function fillColour(doc: PDFKit.PDFDocument, colour: string): string {
  const d = doc as unknown as Document & { _fillColor?: unknown; _normalizeColor(c: string): number[] | null };
  let operators = colourOperators.get(colour);
  if (operators === undefined) {
    const rgb = /^#[0-9a-f]{6}$/i.test(colour) ? d._normalizeColor(colour) : null;
    if (!rgb) {
      doc.fillColor(colour);
      return '';
    }
    operators = remember(colourOperators, colour, `/DeviceRGB cs\n${rgb.join(' ')} scn`);
  }
  d._fillColor = [colour, undefined];
  return operators;
}

/** pdfkit's _initOptions and LineWrapper turn a width into a line width this way (one column, no scaling). */
const lineWidthOf = (width: number): number => (Math.max(width, 0) * 100) / 100 - 18 * 0;

export interface LineStyle {
  align: Align;
  /** Under two lines' height. */
  height: number;
  colour: string;
}

/**
 * `doc.fillColor(colour).text(text, x, y, { width, height, align, ellipsis: true })`:
 * one line, cut short with '…' when too long. The caller sets the font and size.
 */
export function drawLine(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, style: LineStyle): void {
  const d = doc as unknown as Document;
  const colour = fillColour(doc, style.colour);
  if (text === '') {
    // pdfkit draws nothing and leaves its cursor at (x, y).
    if (colour) d.addContent(colour);
    d.x = x;
    d.y = y;
    return;
  }
  const lineWidth = lineWidthOf(width);
  const line = oneLine(doc, text, lineWidth);
  if (!line) {
    if (colour) d.addContent(colour);
    doc.text(text, x, y, { width, height: style.height, align: style.align, ellipsis: true });
    return;
  }
  fragment(doc, line.text, x, y, { align: style.align, width, lineWidth, textWidth: line.textWidth, wordCount: line.wordCount }, colour);
  // Where pdfkit leaves its cursor after one line.
  d.x = x;
  d.y = y + d._font.lineHeight(d._fontSize, true) + (d._lineGap || 0);
}

interface ParagraphLines {
  lines: Array<{ text: string; options: FragmentOptions }>;
}

const paragraphs = new Map<string, ParagraphLines>();

/**
 * A wrapped paragraph at (x, y), `width` wide, in the current font and
 * size: its height as doc.heightOfString() gives it, and a function that
 * draws it as doc.text() would. Its lines are kept, so the same paragraph
 * is wrapped once per process. `ensureSpace` runs between the two, as the
 * caller may start a new page.
 */
export function paragraph(doc: PDFKit.PDFDocument, text: string, width: number): { height: number; draw(x: number, y: number): void } {
  const d = doc as unknown as Document;
  const key = `${d._font.name}\0${d._fontSize}\0${width}\0${text}`;
  const known = paragraphs.get(key);
  if (!known) {
    const height = doc.heightOfString(text, { width });
    return {
      height,
      draw: (x, y) => {
        // Drawn by pdfkit once, its lines noted as they are written.
        const lines: ParagraphLines['lines'] = [];
        const original = d._fragment;
        const page = d.page;
        d._fragment = function (this: Document, t: string, fx: number, fy: number, options: FragmentOptions) {
          lines.push({ text: t, options: { align: options.align, width: options.width, lineWidth: options.lineWidth, textWidth: options.textWidth, wordCount: options.wordCount } });
          original.call(this, t, fx, fy, options);
        };
        try {
          doc.text(text, x, y, { width });
        } finally {
          d._fragment = original;
        }
        // A paragraph that ran onto another page is not a paragraph to draw again from its lines.
        if (d.page === page) remember(paragraphs, key, { lines });
      },
    };
  }
  // heightOfString: the cursor moved down line by line from where it is, less where it was.
  const step = (): number => d._font.lineHeight(d._fontSize, true) + (d._lineGap || 0);
  let end = d.y;
  for (let i = 0; i < known.lines.length; i++) end += step();
  return {
    height: end - d.y,
    draw: (x, y) => {
      let at = y;
      for (const line of known.lines) {
        fragment(doc, line.text, x, at, line.options);
        at += step();
      }
      d.x = x;
      d.y = at;
    },
  };
}
