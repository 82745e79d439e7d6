import { deflateSync, inflateSync } from 'node:zlib';

/**
 * A file embedded in the PDF (PDF 1.7 section 7.11.4, listed in the
 * document's EmbeddedFiles and AF): how a report carries its provenance, so
 * the PDF alone is enough to check it against the store later. pdfkit's own
 * doc.file() hashes the bytes with a JavaScript MD5 and deflates at the
 * default level; this writes the same objects with the bytes deflated at
 * the fastest level, which costs a fraction of a millisecond.
 *
 * Reading it back needs no PDF library: the reader looks for embedded-file
 * streams the way pdfkit writes them (a direct /Length, the stream right
 * after its dictionary). A PDF saved again by another program may keep its
 * attachments in compressed object streams; the reader then finds nothing
 * and says so, and the original file must be used.
 */

/** The parts of pdfkit's document that its typings leave out. */
interface RawDocument {
  ref(data: Record<string, unknown>): { end(chunk?: Buffer): void };
  addNamedEmbeddedFile(name: string, ref: unknown): void;
  _root: { data: { AF?: unknown[] } };
}

/** Embeds `text` as a JSON file named `name`. */
export function attachJson(doc: PDFKit.PDFDocument, name: string, text: string, description: string): void {
  const raw = doc as unknown as RawDocument;
  const bytes = Buffer.from(text, 'utf8');
  const file = raw.ref({
    Type: 'EmbeddedFile',
    // A PDF name: '/' written as #2F.
    Subtype: 'application#2Fjson',
    // Set here, pdfkit leaves the stream as given (it compresses only streams without a filter).
    Filter: 'FlateDecode',
    Params: { Size: bytes.length },
  });
  file.end(deflateSync(bytes, { level: 1 }));
  const spec = raw.ref({
    Type: 'Filespec',
    AFRelationship: 'Data',
    F: new String(name),
    UF: new String(name),
    Desc: new String(description),
    EF: { F: file },
  });
  spec.end();
  raw.addNamedEmbeddedFile(name, spec);
  (raw._root.data.AF ??= []).push(spec);
}

/** At most this much text is inflated from one embedded file: more is not a report's. */
const MAX_INFLATED = 64 * 1024 * 1024;

const EMBEDDED_FILE = /\/Type\s*\/EmbeddedFile\b/g;

/**
 * The embedded JSON files of a PDF that pdfkit wrote, as text, in the order
 * they appear. Files that cannot be read (another writer's layout, a filter
 * other than Flate) are skipped.
 */
export function readEmbeddedFiles(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const found: string[] = [];
  for (const match of text.matchAll(EMBEDDED_FILE)) {
    const dictStart = text.lastIndexOf('<<', match.index);
    const streamAt = text.indexOf('stream', match.index);
    if (dictStart < 0 || streamAt < 0) continue;
    const dict = text.slice(dictStart, streamAt);
    const length = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict);
    if (!length) continue;
    let start = streamAt + 'stream'.length;
    if (text[start] === '\r') start++;
    if (text[start] === '\n') start++;
    const body = pdf.subarray(start, start + Number(length[1]));
    try {
      const flate = /\/Filter\s*\/FlateDecode\b/.test(dict);
      if (!flate && /\/Filter\b/.test(dict)) continue;
      found.push((flate ? inflateSync(body, { maxOutputLength: MAX_INFLATED }) : body).toString('utf8'));
    } catch {
      // A damaged stream: not one of ours.
    }
  }
  return found;
}
