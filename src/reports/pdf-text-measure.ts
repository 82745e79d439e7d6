import { createRequire } from 'node:module';
import type { FontObject } from './pdf-fonts.js';
import { standardMetrics } from './pdf-standard-metrics.js';

/**
 * Fitting the report's text the way pdfkit's line wrapper fits it, without
 * the wrapper: a string's width per font (widths and kerning: summed from
 * a standard font's tables in pdf-standard-metrics.ts, kept per string for
 * an embedded font), the words pdfkit's own line breaker cuts, and the one
 * line with an ellipsis that a cell of one line height shows. pdf-text.ts
 * writes what this measures.
 */

interface LineBreakerClass {
  new (text: string): { nextBreak(): { position: number; required: boolean } | null };
}

const requireFromPdfkit = createRequire(createRequire(import.meta.url).resolve('pdfkit'));
/** The line breaker pdfkit itself uses (Unicode line breaking), from pdfkit's own location. */
const LineBreaker = requireFromPdfkit('linebreak') as LineBreakerClass;

/** Caches are emptied when they grow past this many strings; the report's recurring text fills them again at once. */
const CACHE_LIMIT = 50_000;

export function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** Per font (by its PostScript name, the same for every document), a string's advance in thousandths of the font size. */
const advances = new Map<string, Map<string, number>>();

/** What `make` gives for `text` in `font`, kept per font name and text in `cache`. */
export function perFontAndText<V>(cache: Map<string, Map<string, V>>, font: FontObject, text: string, make: () => V): V {
  let byText = cache.get(font.name);
  if (!byText) cache.set(font.name, (byText = new Map()));
  const known = byText.get(text);
  return known !== undefined ? known : remember(byText, text, make());
}

function advanceOf(font: FontObject, text: string): number {
  // A standard font's is summed from its tables; an embedded font's is kept per string.
  const metrics = standardMetrics(font);
  if (metrics) return metrics.advance(text);
  // At size 1000 the font gives the sum of its advances and kerning as is (times 1000 / 1000).
  return perFontAndText(advances, font, text, () => font.widthOfString(text, 1000));
}

/**
 * The width of `text` in the document's current font and size: pdfkit's
 * doc.widthOfString() with no character spacing and no scaling, to the last bit.
 */
export function widthOf(doc: PDFKit.PDFDocument, text: string): number {
  const d = doc as unknown as { _font: FontObject; _fontSize: number };
  return ((advanceOf(d._font, text) * (d._fontSize / 1000) + 0 * (text.length - 1)) * 100) / 100;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** pdfkit's PDFNumber: the nearest single-precision number not above `n`. */
function pdfNumber(n: number): number {
  const rounded = Math.fround(n);
  if (rounded <= n) return rounded;
  f32[0] = n;
  if (n <= 0) u32[0]! += 1;
  else u32[0]! -= 1;
  return f32[0]!;
}


/** The line wrapper's width of a word. */
function wordWidth(doc: PDFKit.PDFDocument, word: string): number {
  return pdfNumber(widthOf(doc, word) + 0 + 0);
}

interface Words {
  words: string[];
  /** A break that must be taken (a line separator) or a soft hyphen: such text is left to pdfkit. */
  simple: boolean;
}

const wordsCache = new Map<string, Words>();

/**
 * Text of letters, digits, '.' and ',' (amounts, dates, most names) in
 * runs between spaces, each run after the first starting with a letter or
 * digit, maybe after '£': the line breaker breaks it after each run of
 * spaces and nowhere else (a test holds it to that).
 */
const PLAIN_WORDS = /^[A-Za-z0-9.,£][A-Za-z0-9.,]*(?: +£?[A-Za-z0-9][A-Za-z0-9.,]*)* *$/;
const WORD = /[^ ]+ */g;

/** `text` cut where pdfkit's line wrapper may break it. */
export function wordsOf(text: string): Words {
  if (PLAIN_WORDS.test(text)) return { words: text.match(WORD) ?? [text], simple: true };
  const known = wordsCache.get(text);
  if (known) return known;
  const breaker = new LineBreaker(text);
  const words: string[] = [];
  let simple = !text.includes('\u00ad');
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    words.push(text.slice(last, bk.position));
    if (bk.required) simple = false;
    last = bk.position;
  }
  return remember(wordsCache, text, { words, simple });
}

export interface Line {
  text: string;
  textWidth: number;
  wordCount: number;
}

/**
 * The one line pdfkit's wrapper draws of `text` in a box `lineWidth` wide
 * and one line high, with an ellipsis: the words that fit, and when some do
 * not, the line cut back until '…' fits after it. Undefined when pdfkit
 * would do something else (a word wider than the box, a forced break).
 */
export function oneLine(doc: PDFKit.PDFDocument, text: string, lineWidth: number): Line | undefined {
  const { words, simple } = wordsOf(text);
  if (!simple) return undefined;
  let buffer = '';
  let textWidth = 0;
  let wordCount = 0;
  let spaceLeft = lineWidth;
  for (const word of words) {
    const w = wordWidth(doc, word);
    if (w > lineWidth) return undefined;
    if (w <= spaceLeft) {
      buffer += word;
      textWidth += w;
      wordCount++;
      spaceLeft -= w;
      continue;
    }
    // The rest does not fit: cut to what does, followed by an ellipsis.
    buffer = buffer.replace(/\s+$/, '');
    textWidth = wordWidth(doc, `${buffer}…`);
    while (buffer && textWidth > lineWidth) {
      buffer = buffer.slice(0, -1).replace(/\s+$/, '');
      textWidth = wordWidth(doc, `${buffer}…`);
    }
    if (textWidth <= lineWidth) buffer += '…';
    textWidth = wordWidth(doc, buffer);
    break;
  }
  return { text: buffer, textWidth, wordCount };
}
