import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { affordError } from '../domain/errors.js';

/**
 * The PDF's fonts: DejaVu Sans, a TrueType font that pdfkit embeds (as a
 * subset), so the document looks the same in every viewer. pdfkit's own
 * standard-14 fonts are never embedded. DejaVu ships with the npm package
 * dejavu-fonts-ttf, so a fresh install (or a slim container) has it; the
 * system's copy is the fallback.
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

export function pdfFonts(): PdfFonts {
  cached ??= { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') };
  return cached;
}
