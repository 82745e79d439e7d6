import { LIMITS } from '../domain/event-limits.js';
import { strictText } from './packed-texts.js';

const NEWLINE = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const lossyUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * One line of an NDJSON input, kept as its bytes: its text is decoded only
 * when it is read (`raw`), so that a line that only the fast path's worker
 * thread reads, from its bytes, never becomes a string on the reading
 * thread. A line that is not strict UTF-8 is refused, with a readable copy
 * as its text, rather than stored with replacement characters; so is one
 * longer than the limit, of which only the start is kept.
 */
export class InputLine {
  private text: string | undefined;
  private refusal: string | undefined;

  /**
   * The line is bytes `start` to `end` of `chunk` (a chunk read, or a copy
   * when the line spans chunks): no view of them is kept, one object less a
   * line for the garbage collector. A null chunk is a line refused as it was
   * read (too long), which only its dead letter shows.
   */
  constructor(
    readonly lineNumber: number,
    private readonly chunk: Buffer | null,
    private readonly start: number,
    private readonly end: number,
    overLong?: { start: Uint8Array; reason: string },
  ) {
    if (overLong) {
      this.text = lossyUtf8.decode(overLong.start).slice(0, LIMITS.rawPrefixChars);
      this.refusal = overLong.reason;
    }
  }

  /** The line's bytes; null for a line refused as it was read. */
  get bytes(): Uint8Array | null {
    return this.chunk === null ? null : this.chunk.subarray(this.start, this.end);
  }

  get raw(): string {
    return this.text ?? this.decode();
  }

  /** The reason the line is refused before it is parsed, if it is. */
  get refused(): string | undefined {
    if (this.text === undefined) this.decode();
    return this.refusal;
  }

  private decode(): string {
    const bytes = (this.chunk as Buffer).subarray(this.start, this.end);
    const text = strictText(bytes);
    if (text === null) this.refusal = 'the line is not valid UTF-8';
    this.text = text ?? lossyUtf8.decode(bytes).slice(0, LIMITS.rawPrefixChars);
    return this.text;
  }
}

/**
 * Whether bytes `start` to `end` of `chunk` hold nothing but JSON's white
 * space (space, tab, carriage return). Any other (a no-break space, a line
 * separator, a byte order mark inside the file, a vertical tab) makes a
 * line that is no JSON and so a dead letter: taken for blank, as
 * String.prototype.trim takes it, such a line was read and counted nowhere.
 */
function blank(chunk: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = chunk[i] as number;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/**
 * Splits a byte stream into lines on '\n' (a '\r' before it is dropped),
 * yielding the lines that end in each chunk read, together: one step of the
 * loop a chunk rather than one a line. Holds at most LIMITS.rawBytes of one
 * line: a longer line is refused and only its start is kept, the rest is
 * skipped as it streams by. A line's bytes are a view of the chunk it lies
 * in (copied only when it spans chunks). A byte order mark is skipped at the
 * start of the input only. Blank lines are skipped (but counted).
 */
export async function* readLines(input: AsyncIterable<Buffer | string>, maxBytes: number = LIMITS.rawBytes): AsyncGenerator<InputLine[]> {
  let parts: Buffer[] = [];
  let held = 0;
  let overLong = false;
  let lineNumber = 0;
  // The input's first bytes, held until there are three to compare with a byte order mark: a pipe may give
  // them a byte or two at a time. Undefined once the start is settled.
  let lead: Buffer | undefined = Buffer.alloc(0);

  // The line that ends at `end` of `chunk`, which began at `start` of it or in the parts held from the chunks before.
  const finish = (out: InputLine[], chunk: Buffer, start: number, end: number): void => {
    lineNumber++;
    if (held > 0 || overLong) {
      hold(chunk.subarray(start, end));
      chunk = Buffer.concat(parts, held);
      start = 0;
      end = chunk.length;
      parts = [];
      held = 0;
    }
    if (end > start && chunk[end - 1] === CR) end--;
    if (overLong || end - start > maxBytes) {
      overLong = false;
      out.push(new InputLine(lineNumber, null, 0, 0, { start: chunk.subarray(start, Math.min(end, start + LIMITS.rawPrefixChars * 4)), reason: `the line is longer than ${maxBytes} bytes` }));
    } else if (!blank(chunk, start, end)) {
      out.push(new InputLine(lineNumber, chunk, start, end));
    }
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
    if (lead !== undefined) {
      if (lead.length > 0) buf = Buffer.concat([lead, buf]);
      if (buf.length < BOM.length && buf.equals(BOM.subarray(0, buf.length))) {
        lead = Buffer.from(buf);
        continue;
      }
      lead = undefined;
      if (buf.subarray(0, BOM.length).equals(BOM)) buf = buf.subarray(BOM.length);
    }
    const out: InputLine[] = [];
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      finish(out, buf, start, nl);
      start = nl + 1;
    }
    // The start of a line that goes on in the next chunk: copied, as it is joined to the rest anyway.
    if (start < buf.length) hold(Buffer.from(buf.subarray(start)));
    if (out.length > 0) yield out;
  }
  // An input of fewer bytes than a byte order mark, each as one would begin: a line of its own.
  if (lead !== undefined && lead.length > 0) hold(lead);
  if (held > 0 || overLong) {
    const out: InputLine[] = [];
    finish(out, Buffer.alloc(0), 0, 0);
    if (out.length > 0) yield out;
  }
}
