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

/**
 * What a PDF's embedded files may cost to read: a report's provenance is tens
 * to hundreds of KB (a year of a busy customer, a thousand transactions), so
 * these bounds are far above any report's and far below what a crafted
 * upload could make the reader inflate (a 9 MB body of deflated spaces
 * expands a thousandfold).
 */
export const EMBEDDED_LIMITS = {
  /** Text inflated from one embedded file. */
  fileBytes: 8 * 1024 * 1024,
  /** Text inflated from all of them together. */
  totalBytes: 16 * 1024 * 1024,
  /** Embedded-file streams inflated. */
  files: 8,
  /** Places that name an embedded file, looked at, whether or not a stream is found there. */
  matches: 64,
  /** How far around such a place its dictionary and its stream are looked for. */
  window: 4096,
} as const;

const EMBEDDED_FILE = /\/Type\s*\/EmbeddedFile\b/g;

/**
 * The embedded JSON files of a PDF that pdfkit wrote, as text, in the order
 * they appear, read one at a time as the caller asks for them (it stops at
 * the first it can use). Files that cannot be read (another writer's layout,
 * a filter other than Flate, more text than EMBEDDED_LIMITS allow) are
 * skipped; no more than EMBEDDED_LIMITS.files are looked at.
 */
export function* readEmbeddedFiles(pdf: Buffer): Generator<string> {
  const text = pdf.toString('latin1');
  let files = 0;
  let inflated = 0;
  let matches = 0;
  for (const match of text.matchAll(EMBEDDED_FILE)) {
    // Every place counts, found or not, and each is looked at within a window: a file of thousands of such names
    // with no stream after them cost the square of its size.
    if (++matches > EMBEDDED_LIMITS.matches || files === EMBEDDED_LIMITS.files || inflated >= EMBEDDED_LIMITS.totalBytes) return;
    const from = Math.max(0, match.index - EMBEDDED_LIMITS.window);
    const before = text.slice(from, match.index).lastIndexOf('<<');
    const after = text.slice(match.index, match.index + EMBEDDED_LIMITS.window).indexOf('stream');
    if (before < 0 || after < 0) continue;
    const dictStart = from + before;
    const streamAt = match.index + after;
    const dict = text.slice(dictStart, streamAt);
    const length = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(dict);
    if (!length) continue;
    let start = streamAt + 'stream'.length;
    if (text[start] === '\r') start++;
    if (text[start] === '\n') start++;
    const body = pdf.subarray(start, start + Number(length[1]));
    const flate = /\/Filter\s*\/FlateDecode\b/.test(dict);
    if (!flate && /\/Filter\b/.test(dict)) continue;
    files++;
    let bytes: Buffer;
    try {
      const room = Math.min(EMBEDDED_LIMITS.fileBytes, EMBEDDED_LIMITS.totalBytes - inflated);
      // Over the room, inflateSync throws rather than hand back a part.
      bytes = flate ? inflateSync(body, { maxOutputLength: room }) : body;
      if (bytes.length > room) continue;
    } catch {
      // A damaged stream, or more than the room: not one of ours.
      inflated += EMBEDDED_LIMITS.fileBytes;
      continue;
    }
    inflated += bytes.length;
    yield bytes.toString('utf8');
  }
}
