import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { gatherContent } from '../../src/reports/pdf-content.js';

/** gatherContent writes each page's operators at the end, as one piece: the document must not change by a byte. */

function bytesOf(doc: PDFKit.PDFDocument, beforeEnd: () => void = () => undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    beforeEnd();
    doc.end();
  });
}

/** Three pages of shapes, colours and text, then a footer written on each page after all exist (as the report's footers are). */
function draw(gather: boolean): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', compress: false, bufferPages: true, info: { CreationDate: new Date('2026-01-02T03:04:05Z') } });
  const write = gather ? gatherContent(doc) : () => undefined;
  for (let p = 0; p < 3; p++) {
    if (p) doc.addPage();
    doc.rect(40, 40, 200, 20).fill('#f0f4f8');
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#1f2933').text(`Page ${p + 1} heading`, 42, 44, { width: 300 });
    doc.moveTo(40, 70).lineTo(500, 70).lineWidth(0.6).strokeColor('#cbd2d9').stroke();
    doc.font('Helvetica').fontSize(9).text('A paragraph long enough to wrap onto a second line in a narrow column of text.', 42, 80, { width: 150 });
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.font('Helvetica').fontSize(7).fillColor('#616e7c').text(`Page ${i + 1} of ${range.count}`, 42, 780, { width: 200, height: 9, ellipsis: true });
  }
  return bytesOf(doc, write);
}

describe('page operators gathered and written once', () => {
  it('gives the same document, byte for byte, as pdfkit writing each operator', async () => {
    const gathered = await draw(true);
    const plain = await draw(false);
    expect(gathered.length).toBeGreaterThan(2000);
    expect(gathered.equals(plain)).toBe(true);
  });

  it('puts nothing on a page until the document is finished, then everything', async () => {
    const doc = new PDFDocument({ size: 'A4', compress: false });
    const write = gatherContent(doc);
    const page = (doc as unknown as { page: { content: { uncompressedLength: number } } }).page;
    const before = page.content.uncompressedLength;
    doc.rect(10, 10, 10, 10).fill('#000000');
    expect(page.content.uncompressedLength).toBe(before);
    write();
    expect(page.content.uncompressedLength).toBeGreaterThan(before);
  });

  it('keeps every byte of a page far larger than its first buffer, over many pages', async () => {
    const busy = (gather: boolean): Promise<Buffer> => {
      // Pages stay open until the end, as the report's do (its footers are written last).
      const doc = new PDFDocument({ size: 'A4', compress: false, bufferPages: true, info: { CreationDate: new Date('2026-01-02T03:04:05Z') } });
      const write = gather ? gatherContent(doc) : () => undefined;
      for (let p = 0; p < 3; p++) {
        if (p) doc.addPage();
        // Some 4,000 operators a page: hundreds of KB, each page's buffer grows several times.
        for (let i = 0; i < 1000; i++) doc.rect(40 + (i % 50), 40 + p + i / 10, 3.5, 1.25).fill(i % 2 ? '#f0f4f8' : '#1f2933');
        doc.font('Helvetica').fontSize(9).fillColor('#000000').text(`Page ${p + 1} £1,234.56 …`, 42, 700);
      }
      return bytesOf(doc, write);
    };
    const gathered = await busy(true);
    expect(gathered.length).toBeGreaterThan(200_000);
    expect(gathered.equals(await busy(false))).toBe(true);
  });
});

