import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfFonts } from '../../src/reports/pdf-fonts.js';
import { drawLine, paragraph } from '../../src/reports/pdf-text.js';
import { createRequire } from 'node:module';
import { widthOf, wordsOf } from '../../src/reports/pdf-text-measure.js';
import { poppler } from '../helpers/pdf.js';

/**
 * pdf-text.ts sets the report's text without pdfkit's line wrapper. Its
 * promise is that the page is exactly what pdfkit's text() makes: these
 * tests draw the same cells both ways and compare the bytes of the two
 * documents, then read the text back with pdftotext.
 */

type Doc = PDFKit.PDFDocument;
type Align = 'left' | 'right' | 'center';

const created = new Date('2026-01-02T03:04:05Z');

function newDoc(): Doc {
  const doc = new PDFDocument({ size: 'A4', compress: false, info: { CreationDate: created } });
  const fonts = pdfFonts();
  doc.registerFont('unicode', fonts.regular);
  doc.registerFont('unicode-bold', fonts.bold);
  return doc;
}

function bytesOf(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

interface CellCase {
  text: string;
  font: string;
  size: number;
  width: number;
  align: Align;
}

const LONG = 'A very long account name that will certainly not fit in its column at all, ever';
const texts = [
  'Total income',
  '-£1,234.56',
  '£12,345,678.90',
  'AVAWAY To. Yo, Te; Tr Wa',
  LONG,
  'Supercalifragilisticexpialidociousaccountnamewithoutspaces',
  'Payday loans / BNPL - two words-with-hyphens',
  'trailing spaces   ',
  'Zażółć gęślą jaźń, Łukasz 王小明',
  'ends with a line\u2028separator',
  'soft\u00adhyphen in a long enough cell to be cut somewhere',
  '',
];
const fonts = ['Helvetica', 'Helvetica-Bold', 'unicode', 'unicode-bold'];
const aligns: Align[] = ['left', 'right', 'center'];

const cases: CellCase[] = [];
texts.forEach((text, i) =>
  fonts.forEach((font, j) =>
    aligns.forEach((align, k) => {
      // Unicode text in a standard font would lose characters: the report never sets it so.
      if (/[^\x20-\xff]/.test(text) && font.startsWith('Helvetica')) return;
      cases.push({ text, font, align, size: [7, 8.5, 9, 15][(i + j) % 4]!, width: [30, 62, 110.4, 240][(i + k) % 4]! });
    }),
  ),
);

/** The cases drawn one under another, by pdfkit (`fast` false) or by pdf-text.ts. */
function drawCases(fast: boolean, list: readonly CellCase[] = cases): Doc {
  const doc = newDoc();
  let y = 40;
  for (const c of list) {
    if (y > 780) {
      doc.addPage();
      y = 40;
    }
    doc.font(c.font).fontSize(c.size);
    if (fast) drawLine(doc, c.text, 40, y, c.width, { align: c.align, height: c.size * 1.25, colour: '#1f2933' });
    else doc.fillColor('#1f2933').text(c.text, 40, y, { width: c.width, height: c.size * 1.25, align: c.align, ellipsis: true });
    // Whatever follows relies on pdfkit's cursor as text() leaves it.
    doc.text('·');
    y += c.size * 1.6;
  }
  return doc;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function written(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-pdf-text-'));
  dirs.push(dir);
  const file = path.join(dir, 'page.pdf');
  writeFileSync(file, pdf);
  return file;
}

describe('text set without the line wrapper', () => {
  it('measures a string exactly as pdfkit does, kerning included, in every font and size', () => {
    const doc = newDoc();
    const samples = ['AV', 'To', 'Yo.', 'AVAWAY To. Yo, Te; Tr Wa', 'Total income', '-£1,234.56', 'Zażółć gęślą jaźń', '…', ' ', ''];
    for (const font of fonts) {
      for (const size of [7, 8.5, 9, 15]) {
        doc.font(font).fontSize(size);
        for (const s of samples) {
          if (/[^\x20-\xff…]/.test(s) && font.startsWith('Helvetica')) continue;
          expect(widthOf(doc, s), `${font} ${size} '${s}'`).toBe(doc.widthOfString(s));
          // Asked again, from what was kept: the same.
          expect(widthOf(doc, s)).toBe(doc.widthOfString(s));
        }
      }
    }
    // Kerning pairs are really in the measure: 'AV' is narrower than 'A' and 'V' apart.
    doc.font('Helvetica').fontSize(10);
    expect(widthOf(doc, 'AV')).toBeLessThan(widthOf(doc, 'A') + widthOf(doc, 'V'));
  });

  it('draws every cell (fitting, cut short with an ellipsis, too long a word, aligned, Unicode, empty) byte for byte as pdfkit', async () => {
    const ours = await bytesOf(drawCases(true));
    const pdfkits = await bytesOf(drawCases(false));
    expect(ours.length).toBe(pdfkits.length);
    expect(ours.equals(pdfkits)).toBe(true);
    // Twice, from what the first pass kept: still the same.
    expect((await bytesOf(drawCases(true))).equals(pdfkits)).toBe(true);
  });

  it('keeps a long cell on its line, cut short with an ellipsis, as pdftotext reads it', async () => {
    const doc = newDoc();
    doc.font('Helvetica').fontSize(9);
    drawLine(doc, LONG, 40, 40, 120, { align: 'left', height: 9 * 1.25, colour: '#000000' });
    drawLine(doc, 'Total income', 40, 60, 120, { align: 'right', height: 9 * 1.25, colour: '#000000' });
    const file = written(await bytesOf(doc));
    const lines = poppler('pdftotext', ['-layout', file, '-']).split('\n').map((l) => l.trim()).filter(Boolean);
    expect(lines[0]).toMatch(/^A very long account name…$/);
    expect(LONG.startsWith(lines[0]!.slice(0, -1))).toBe(true);
    expect(lines[1]).toBe('Total income');
  });

  it('wraps a paragraph as pdfkit does, its height as heightOfString gives it, and again from its kept lines', async () => {
    const text = 'How the figures are made: income is the credits in the income bucket; essential and other expenditure are the debits in the essentials and other buckets, the monthly averages rounded half-up.';
    const draw = async (fast: boolean): Promise<{ pdf: Buffer; heights: number[] }> => {
      const doc = newDoc();
      const heights: number[] = [];
      for (const y of [40, 133.3, 400]) {
        doc.font('Helvetica').fontSize(8.5);
        if (fast) {
          const p = paragraph(doc, text, 200);
          heights.push(p.height);
          p.draw(42, y);
        } else {
          heights.push(doc.heightOfString(text, { width: 200 }));
          doc.text(text, 42, y, { width: 200 });
        }
        doc.text('·');
      }
      return { pdf: await bytesOf(doc), heights };
    };
    const ours = await draw(true);
    const pdfkits = await draw(false);
    expect(ours.heights).toEqual(pdfkits.heights);
    expect(ours.heights[0]).toBeGreaterThan(8.5 * 3);
    expect(ours.pdf.equals(pdfkits.pdf)).toBe(true);
    const words = poppler('pdftotext', [written(ours.pdf), '-']).replace(/·/g, ' ').split(/\s+/).filter(Boolean);
    expect(words.slice(0, text.split(' ').length).join(' ')).toBe(text);
  });

  describe('strings of every kind, not only the report\'s own', () => {
    /** A small seeded generator, so that a failure names a string that fails again. */
    function random(seed: number): () => number {
      let x = seed;
      return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    }
    // Kerned pairs (AV, To, Yo, LT…), digits and money, WinAnsi beyond ASCII (€, …, ’, ß), spaces and breaks.
    const ALPHABET = 'AVWTYLPFaeoyr.,;:-/()0123456789£€…’ßéÅ&%\'" ';
    function strings(seed: number, count: number): string[] {
      const next = random(seed);
      return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 24) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(''));
    }

    it('measures 2,000 random strings as pdfkit does in both standard fonts', () => {
      const doc = newDoc();
      for (const font of ['Helvetica', 'Helvetica-Bold']) {
        doc.font(font).fontSize(9);
        for (const s of strings(font.length, 1000)) expect(widthOf(doc, s), `${font} '${s}'`).toBe(doc.widthOfString(s));
      }
    });

    it('draws 600 random cells byte for byte as pdfkit', async () => {
      const next = random(7);
      const randomCases: CellCase[] = strings(11, 600).map((text, i) => ({
        text, font: i % 2 ? 'Helvetica' : 'Helvetica-Bold', size: [7, 8, 9][i % 3]!, width: 20 + Math.floor(next() * 200), align: aligns[i % 3]!,
      }));
      expect((await bytesOf(drawCases(true, randomCases))).equals(await bytesOf(drawCases(false, randomCases)))).toBe(true);
    });

    it('cuts text into the words pdfkit\'s line breaker gives, for every string of up to 6 of letters, digits, money and spaces', () => {
      const LineBreaker = createRequire(createRequire(import.meta.url).resolve('pdfkit'))('linebreak') as new (t: string) => { nextBreak(): { position: number } | null };
      const breakerWords = (text: string): string[] => {
        const breaker = new LineBreaker(text);
        const words: string[] = [];
        let last = 0;
        for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
          words.push(text.slice(last, bk.position));
          last = bk.position;
        }
        return words;
      };
      const chars = ['A', '9', '.', ',', '£', ' ', '-'];
      let checked = 0;
      const each = (prefix: string, left: number): void => {
        if (prefix) {
          expect(wordsOf(prefix).words, JSON.stringify(prefix)).toEqual(breakerWords(prefix));
          checked++;
        }
        if (left > 0) for (const c of chars) each(prefix + c, left - 1);
      };
      each('', 6);
      expect(checked).toBe(137_256);
      for (const s of strings(3, 2000)) expect(wordsOf(s).words, JSON.stringify(s)).toEqual(breakerWords(s));
    });
  });
});
