import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/ingest/line-reader.js';

interface Line {
  lineNumber: number;
  raw: string;
  refused?: string;
}

/** The lines read, as plain values: the reason is read before the text, as a source's item may be. */
async function collect(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, maxBytes?: number): Promise<Line[]> {
  const out: Line[] = [];
  const input = (async function* () {
    yield* chunks;
  })();
  for await (const lines of readLines(input, maxBytes)) {
    for (const line of lines) {
      const refused = line.refused;
      out.push({ lineNumber: line.lineNumber, raw: line.raw, ...(refused === undefined ? {} : { refused }) });
    }
  }
  return out;
}

describe('readLines', () => {
  it('splits on LF, drops a CR before it, skips blank lines but counts them, and keeps a last line without LF', async () => {
    const lines = await collect([Buffer.from('a\r\n\n  \nb\nc')]);
    expect(lines).toEqual([
      { lineNumber: 1, raw: 'a' },
      { lineNumber: 4, raw: 'b' },
      { lineNumber: 5, raw: 'c' },
    ]);
  });

  it("takes only JSON's white space for a blank line: a line of any other is read, so that it becomes a dead letter rather than nothing", async () => {
    const others = ['\u00a0', '\u2028', '\ufeff', '\u000b', '\u000c', ' \u3000 '];
    const lines = await collect([Buffer.from([' \t\r', ...others, 'a'].join('\n'))]);
    expect(lines).toEqual([...others.map((raw, i) => ({ lineNumber: i + 2, raw })), { lineNumber: others.length + 2, raw: 'a' }]);
  });

  it('joins a character split across chunks', async () => {
    const bytes = Buffer.from('{"d":"€🍕"}\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(await collect(chunks)).toEqual([{ lineNumber: 1, raw: '{"d":"€🍕"}' }]);
  });

  it('skips a byte order mark at the start of the input only', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const lines = await collect([Buffer.concat([bom, Buffer.from('a\n'), bom, Buffer.from('b\n')])]);
    expect(lines).toEqual([
      { lineNumber: 1, raw: 'a' },
      { lineNumber: 2, raw: '\uFEFFb' },
    ]);
  });

  it('skips a byte order mark that comes a byte at a time, and keeps an input that only begins like one', async () => {
    const lines = await collect([Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.concat([Buffer.from([0xbf]), Buffer.from('a\nb\n')])]);
    expect(lines).toEqual([
      { lineNumber: 1, raw: 'a' },
      { lineNumber: 2, raw: 'b' },
    ]);
    const lone = await collect([Buffer.from([0xef]), Buffer.from([0xbb])]);
    // One line of those two bytes, once.
    expect(lone).toEqual([{ lineNumber: 1, raw: Buffer.from([0xef, 0xbb]).toString('utf8'), refused: expect.any(String) }]);
    expect(await collect([Buffer.from([0xef]), Buffer.from('x\n')])).toEqual([expect.objectContaining({ lineNumber: 1, refused: expect.any(String) })]);
  });

  it('keeps each line as its bytes, decoded only when its text is read, whichever is read first', async () => {
    const lines: { bytes: Uint8Array | null; raw: string; refused: string | undefined }[] = [];
    for await (const chunk of readLines((async function* () {
      yield Buffer.from('{"a":1}\n');
      yield Buffer.from([0x7b, 0xff, 0x7d, 0x0a]);
    })())) {
      for (const line of chunk) lines.push(line);
    }
    expect(lines.map((l) => (l.bytes ? Buffer.from(l.bytes).toString('latin1') : null))).toEqual(['{"a":1}', '{\xff}']);
    // The text first, then the reason; and the reason first, then the text.
    expect([lines[0]?.raw, lines[0]?.refused]).toEqual(['{"a":1}', undefined]);
    expect([lines[1]?.refused, lines[1]?.raw]).toEqual(['the line is not valid UTF-8', '{\uFFFD}']);
  });

  it("skips a line of nothing but JSON's white space, but not one that is not UTF-8", async () => {
    const lines = await collect([Buffer.concat([Buffer.from(' \t\r\n', 'utf8'), Buffer.from([0x20, 0xff, 0x0a]), Buffer.from('x\n')])]);
    expect(lines).toEqual([
      { lineNumber: 2, raw: ' \uFFFD', refused: 'the line is not valid UTF-8' },
      { lineNumber: 3, raw: 'x' },
    ]);
  });

  it('refuses a line that is not UTF-8, keeping a readable copy, and goes on', async () => {
    const lines = await collect([Buffer.from([0x61, 0xff, 0x62, 0x0a, 0x63, 0x0a])]);
    expect(lines).toEqual([
      { lineNumber: 1, raw: 'a\uFFFDb', refused: 'the line is not valid UTF-8' },
      { lineNumber: 2, raw: 'c' },
    ]);
  });

  it('refuses a line over the limit, keeping only its start, and reads exactly up to the limit', async () => {
    const lines = await collect([Buffer.from(`${'x'.repeat(10)}\n${'y'.repeat(11)}\r\n${'z'.repeat(10)}\r\n`)], 10);
    expect(lines).toEqual([
      { lineNumber: 1, raw: 'x'.repeat(10) },
      { lineNumber: 2, raw: 'y'.repeat(11), refused: 'the line is longer than 10 bytes' },
      { lineNumber: 3, raw: 'z'.repeat(10) },
    ]);
  });

  it('streams past a line longer than the largest string the runtime can hold', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    // 600 MB without a line end: more than a V8 string can hold, so a reader that buffers the line fails.
    const chunks = (function* () {
      for (let i = 0; i < 600; i++) yield chunk;
      yield Buffer.from('\n{"ok":true}\n');
    })();
    const lines = await collect(chunks);
    expect(lines.map((l) => [l.lineNumber, l.raw.length, l.refused])).toEqual([
      [1, 1024, 'the line is longer than 65536 bytes'],
      [2, 11, undefined],
    ]);
  });
});
