import type { FontObject } from './pdf-fonts.js';

/**
 * A standard (AFM) font's widths, kerning and glyph codes by character
 * code, taken from pdfkit's own font object on first use of each character
 * or pair. pdfkit measures a string by naming every glyph, looking its
 * width up by name and its kerning by the pair's names; the report's
 * amounts, dates and descriptions differ from customer to customer, so
 * they are measured once each. Here a string's width is a sum over small
 * tables: the same integers pdfkit adds (AFM widths and kerning are whole
 * thousandths), so the same result, with nothing to keep per string.
 */

/** The parts of pdfkit's AFM font that the tables are read from. */
interface AfmFont {
  characterToGlyph(code: number): string;
  widthOfGlyph(glyph: string): number;
  getKernPair(left: string, right: string): number;
  encodeText(text: string): string[];
}

export interface StandardMetrics {
  /** The sum of the advances of `text` in thousandths of the font size: font.widthOfString(text, 1000). */
  advance(text: string): number;
  /** The TJ operator pdfkit writes for `text` (glyph codes in hex, kerning between), or '' for no text. */
  glyphRun(text: string): string;
}

/** Not a kerning amount (AFM kerning is a few hundred thousandths at most). */
const UNKNOWN = 0x7fffffff;

/** A number as pdfkit writes it in a content stream. */
export const num = (n: number): string => String(Math.round(n * 1e6) / 1e6);

class AfmTables implements StandardMetrics {
  /** By character code: the glyph's width, or -1 until asked. */
  private readonly widths = new Int32Array(0x10000).fill(-1);
  private readonly glyphs: string[] = [];
  private readonly hex: string[] = [];
  /** By left code * 256 + right code, for codes under 256: the pair's kerning, or UNKNOWN until asked. */
  private readonly latinKerning = new Int32Array(0x10000).fill(UNKNOWN);
  /** Other pairs, by left code * 0x10000 + right code. */
  private readonly kerning = new Map<number, number>();

  constructor(private readonly font: AfmFont) {}

  private width(code: number): number {
    let w = this.widths[code]!;
    if (w < 0) {
      const glyph = this.font.characterToGlyph(code);
      this.glyphs[code] = glyph;
      this.hex[code] = this.font.encodeText(String.fromCharCode(code))[0] ?? '';
      w = this.font.widthOfGlyph(glyph);
      this.widths[code] = w;
    }
    return w;
  }

  /** The glyph name of `code`, its row of the tables filled first. */
  private glyph(code: number): string {
    this.width(code);
    return this.glyphs[code]!;
  }

  /** The kerning between the characters at `i` and `i + 1` of `text` (0 after the last, as pdfkit has it). */
  private kernAfter(text: string, i: number): number {
    if (i + 1 >= text.length) return 0;
    const left = text.charCodeAt(i);
    const right = text.charCodeAt(i + 1);
    if (left < 0x100 && right < 0x100) {
      const at = (left << 8) | right;
      let k = this.latinKerning[at]!;
      if (k === UNKNOWN) this.latinKerning[at] = k = this.font.getKernPair(this.glyph(left), this.glyph(right));
      return k;
    }
    const key = left * 0x10000 + right;
    let k = this.kerning.get(key);
    if (k === undefined) this.kerning.set(key, (k = this.font.getKernPair(this.glyph(left), this.glyph(right))));
    return k;
  }

  advance(text: string): number {
    let sum = 0;
    for (let i = 0; i < text.length; i++) sum += this.width(text.charCodeAt(i)) + this.kernAfter(text, i);
    return sum;
  }

  glyphRun(text: string): string {
    const n = text.length;
    if (n === 0) return '';
    let out = '';
    let segment = '';
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      this.width(code);
      segment += this.hex[code];
      const k = this.kernAfter(text, i);
      // pdfkit ends a piece of the run at each kerned pair, and at the end (its kerning there is 0).
      if (k !== 0 || i + 1 === n) {
        out += `${out ? ' ' : ''}<${segment}> ${num(-k)}`;
        segment = '';
      }
    }
    return `[${out}] TJ`;
  }
}

/** Per parsed AFM font (useStandardFonts shares one per process between documents). */
const tables = new WeakMap<object, AfmTables>();

/**
 * The tables of a standard font, or undefined for an embedded one (its
 * glyphs depend on the document's subset) or a font not built as expected.
 */
export function standardMetrics(font: FontObject): StandardMetrics | undefined {
  if ('subset' in font) return undefined;
  const afm = (font as unknown as { font?: Partial<AfmFont> }).font;
  if (!afm || typeof afm.characterToGlyph !== 'function' || typeof afm.widthOfGlyph !== 'function' ||
      typeof afm.getKernPair !== 'function' || typeof afm.encodeText !== 'function') return undefined;
  let t = tables.get(afm);
  if (!t) tables.set(afm, (t = new AfmTables(afm as AfmFont)));
  return t;
}
