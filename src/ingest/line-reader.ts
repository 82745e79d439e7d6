import { LIMITS } from '../domain/event-limits.js';

/** One line of an NDJSON input, as text, or refused at the byte level with the reason. */
export interface InputLine {
  lineNumber: number;
  raw: string;
  refused?: string;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Splits a byte stream into lines on '\n' (a '\r' before it is dropped).
 * Holds at most LIMITS.rawBytes of one line: a longer line is refused and
 * only its start is kept, the rest is skipped as it streams by. Each line is
 * decoded as strict UTF-8: a line that is not is refused rather than stored
 * with replacement characters. A byte order mark is skipped at the start of
 * the input only. Blank lines are skipped (but counted).
 */
export async function* readLines(input: AsyncIterable<Buffer | string>, maxBytes: number = LIMITS.rawBytes): AsyncGenerator<InputLine> {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lossy = new TextDecoder('utf-8', { ignoreBOM: true });
  let parts: Buffer[] = [];
  let held = 0;
  let overLong = false;
  let lineNumber = 0;
  let first = true;

  const finish = (): InputLine | undefined => {
    lineNumber++;
    let bytes = Buffer.concat(parts, held);
    parts = [];
    held = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (overLong || bytes.length > maxBytes) {
      overLong = false;
      return { lineNumber, raw: lossy.decode(bytes).slice(0, LIMITS.rawPrefixChars), refused: `the line is longer than ${maxBytes} bytes` };
    }
    let raw: string;
    try {
      raw = strict.decode(bytes);
    } catch {
      return { lineNumber, raw: lossy.decode(bytes).slice(0, LIMITS.rawPrefixChars), refused: 'the line is not valid UTF-8' };
    }
    return raw.trim() === '' ? undefined : { lineNumber, raw };
  };
  const hold = (bytes: Buffer): void => {
    if (overLong) return;
    if (held + bytes.length > maxBytes + 1) {
      // Over the limit (one byte of slack for a '\r'): keep only what the dead letter shows.
      overLong = true;
      const keep = Math.max(0, LIMITS.rawPrefixChars * 4 - held);
      if (keep > 0) parts.push(Buffer.from(bytes.subarray(0, keep)));
      held += Math.min(keep, bytes.length);
      return;
    }
    parts.push(bytes);
    held += bytes.length;
  };

  for await (const chunk of input) {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (first) {
      first = false;
      if (buf.subarray(0, 3).equals(BOM)) buf = buf.subarray(3);
    }
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      hold(buf.subarray(start, nl));
      const line = finish();
      if (line) yield line;
      start = nl + 1;
    }
    // Copied: the stream may reuse its buffer.
    if (start < buf.length) hold(Buffer.from(buf.subarray(start)));
  }
  if (held > 0 || overLong) {
    const line = finish();
    if (line) yield line;
  }
}
