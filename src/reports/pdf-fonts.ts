import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { affordError } from '../domain/errors.js';

/**
 * The PDF's fonts. Text is set in Helvetica, one of the standard fonts every
 * PDF reader carries: nothing is embedded, laid out or subset, which makes a
 * report about three times faster to render than with an embedded TrueType
 * font, and its encoding (WinAnsi) covers English text, £, € and the
 * punctuation the report uses. Text with any character outside WinAnsi (a
 * name in Polish or Chinese, an emoji in a description) is set in DejaVu
 * Sans instead, a TrueType font that pdfkit embeds as a subset; a document
 * whose text is all WinAnsi embeds no font at all. DejaVu draws the Latin,
 * Greek, Cyrillic, Arabic, Hebrew and Armenian scripts and many symbols; a
 * character it has no glyph for (a Chinese name, an emoji) is written as its
 * code point, [U+4E2D], rather than drawn as an empty box (drawableText), so
 * that nothing printed is lost; the PDF's embedded data keeps the text as it
 * was.
 * DejaVu ships with the npm package dejavu-fonts-ttf, so a fresh install (or
 * a slim container) has it; the system's copy is the fallback.
 */
const FONT_DIRS = [
  path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf'),
  '/usr/share/fonts/truetype/dejavu', // Debian, Ubuntu
  '/usr/share/fonts/dejavu-sans-fonts', // Fedora
  '/usr/share/fonts/dejavu', // Alpine, older Fedora
  '/usr/share/fonts/TTF', // Arch
];

/** What pdfkit's registerFont accepts; a parsed fontkit font is one of them at run time. */
export type PdfFontSource = PDFKit.Mixins.PDFFontSource;

export interface PdfFonts {
  regular: PdfFontSource;
  bold: PdfFontSource;
}

interface Fontkit {
  create(buffer: Buffer): object;
}

let cached: PdfFonts | undefined;

function find(file: string): string {
  for (const dir of FONT_DIRS) {
    const candidate = path.join(dir, file);
    if (existsSync(candidate)) return candidate;
  }
  throw affordError('FONT_NOT_FOUND', file, FONT_DIRS.join(', '));
}

/**
 * Parsing a TrueType font costs about 20 ms, more than drawing the whole
 * report, so each font is parsed once per process and the parsed font is
 * handed to every document (pdfkit accepts a fontkit font as a source and
 * subsets it per document). fontkit is loaded from pdfkit's own location:
 * it is the very copy pdfkit would use on a buffer.
 */
function parse(file: string): PdfFontSource {
  const requireFromPdfkit = createRequire(createRequire(import.meta.url).resolve('pdfkit'));
  const fontkit = requireFromPdfkit('fontkit') as Fontkit;
  return fontkit.create(readFileSync(find(file))) as PdfFontSource;
}

/** The parts of pdfkit's font objects that its typings leave out. */
export interface FontObject {
  name: string;
  id: string;
  ascender: number;
  lineGap: number;
  descender: number;
  widthOfString(text: string, size: number): number;
  encode(text: string): [string[], Array<{ xAdvance: number; advanceWidth: number; xOffset: number; yOffset: number }>];
  ref(): unknown;
  lineHeight(size: number, includeGap?: boolean): number;
}

/** The standard fonts, by pdfkit's names. */
export const STANDARD_FONTS = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;

/** The parts of pdfkit's document and font objects that its typings leave out. */
interface FontInternals {
  _fontFamilies?: Record<string, object>;
  _fontCount?: number;
  _font?: { font?: object; name?: string };
}

const templates = new Map<string, object>();

interface AfmMetrics {
  kernPairs?: Record<string, number>;
  getKernPair?: (left: string, right: string) => number;
}

/**
 * pdfkit looks up the kerning of every pair of letters by building the
 * string `left + NUL + right`, a large share of a report's time. The
 * same pairs by first then second glyph name answer without building
 * anything. Applied to the metrics parsed once per process.
 */
function fasterKerning(metrics: AfmMetrics): void {
  if (!metrics.kernPairs || typeof metrics.getKernPair !== 'function') return;
  const byLeft = new Map<string, Map<string, number>>();
  for (const [pair, amount] of Object.entries(metrics.kernPairs)) {
    const [left = '', right = ''] = pair.split('\0');
    let rights = byLeft.get(left);
    if (!rights) byLeft.set(left, (rights = new Map()));
    rights.set(right, amount);
  }
  metrics.getKernPair = (left, right) => byLeft.get(left)?.get(right) ?? 0;
}

/**
 * Registers `regular` and `bold` as the standard fonts on `doc`. pdfkit
 * parses a standard font's metrics (some 2,700 kerning pairs) for every
 * document that uses it, about 1 ms a font, a fifth of a report's time. The
 * parsed metrics never change, so each document gets its own font object
 * (its own id and dictionary) around metrics parsed once per process. If
 * pdfkit's internals ever differ from what this expects, it simply lets
 * pdfkit load the fonts itself.
 */
export function useStandardFonts(doc: PDFKit.PDFDocument): void {
  const internals = doc as unknown as FontInternals;
  for (const [alias, name] of Object.entries(STANDARD_FONTS)) {
    doc.registerFont(alias, name);
    const template = templates.get(name);
    if (!template) {
      doc.font(alias);
      const loaded = internals._font;
      if (loaded && typeof loaded.font === 'object' && loaded.name === name) {
        fasterKerning(loaded.font as AfmMetrics);
        templates.set(name, loaded);
      }
      continue;
    }
    if (!internals._fontFamilies || typeof internals._fontCount !== 'number') continue;
    const font = Object.assign(Object.create(Object.getPrototypeOf(template) as object) as object, template, {
      document: doc,
      id: `F${++internals._fontCount}`,
      dictionary: null,
      embedded: false,
    });
    internals._fontFamilies[alias] = font;
    internals._fontFamilies[name] = font;
  }
}

// WinAnsiEncoding: printable ASCII, Latin-1, and the 27 characters it puts at 0x80-0x9F.
const NOT_WIN_ANSI = /[^\x20-\x7e\xa0-\xff\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178]/;

/** True when the standard fonts cannot show `text`: it needs the embedded Unicode font. */
export function needsUnicodeFont(text: string): boolean {
  return NOT_WIN_ANSI.test(text);
}

// Joiners and variation selectors, which shape a sequence (an emoji's) rather than stand for anything themselves.
const SHAPING = /\u200c|\u200d|[\ufe00-\ufe0f]|\udb40[\udd00-\uddef]/g;

interface Glyphs {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

/**
 * `text` as the embedded Unicode font can draw it: each character it has no
 * glyph for written as its code point ([U+1F4B8]), and the joiners and
 * variation selectors of such sequences left out. Text the standard fonts
 * show is returned as it is, without looking at the font.
 */
export function drawableText(text: string): string {
  if (!needsUnicodeFont(text)) return text;
  const font = pdfFonts().regular as unknown as Glyphs;
  let out = '';
  let missing = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (font.hasGlyphForCodePoint(cp)) out += ch;
    else {
      missing = true;
      out += `[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]`;
    }
  }
  return missing ? out.replace(SHAPING, '') : out;
}

/** DejaVu Sans, parsed once per process: for the text the standard fonts cannot show. */
export function pdfFonts(): PdfFonts {
  cached ??= { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') };
  return cached;
}
