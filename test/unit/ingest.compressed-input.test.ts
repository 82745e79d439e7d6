import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Decompress as ZstdDecompress } from 'fzstd';
import xxhash from 'xxhash-wasm';
import { decompressed } from '../../src/ingest/compressed-input.js';

/** An input of `chunks` that records whether its reader closed it, and can fail after its chunks as a file can. */
function input(chunks: readonly Buffer[], failWith?: Error): { source: AsyncIterable<Buffer>; closed: () => boolean } {
  let closed = false;
  return {
    source: (async function* () {
      try {
        for (const c of chunks) yield c;
        if (failWith) throw failWith;
      } finally {
        closed = true;
      }
    })(),
    closed: () => closed,
  };
}

const text = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `{"line":${i}}\n`).join(''));
const pieces = (bytes: Buffer, size: number): Buffer[] => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
const zstd = (bytes: Buffer): Buffer => execFileSync('zstd', ['-q', '-c'], { input: bytes, maxBuffer: 1 << 28 });

describe('compressed input', () => {
  it('gives plain, gzip and ZStandard inputs as their text, whatever size the pieces come in (a magic number split included)', async () => {
    for (const [name, bytes] of [['plain', text], ['gzip', gzipSync(text)], ['zstd', zstd(text)]] as const) {
      for (const size of [1, 3, 4096]) {
        if (size === 1 && bytes.length > 200_000) continue;
        const out: Buffer[] = [];
        for await (const chunk of decompressed(input(pieces(bytes, size)).source)) out.push(chunk);
        expect(Buffer.concat(out).equals(text), `${name} in pieces of ${size}`).toBe(true);
      }
    }
  });

  it('hands on everything a damaged ZStandard input decoded before the damage, then fails: the lines read before it stand', async () => {
    // Lines that compress as events do, some eight times: a 64 KiB piece then holds several blocks.
    const event = (i: number) => JSON.stringify({ event_id: `e-${i}`, type: 'transaction.upserted', n: i, note: `line ${i} ${(i * 7919) % 10007}` });
    const many = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `${event(i)}\n`).join(''));
    const compressed = zstd(many);
    // Damage the decoder meets part-way through one of the 64 KiB pieces it is given, after blocks that decode.
    let found: { yielded: number; decoded: number } | undefined;
    for (let at = 30_000; at < compressed.length && found === undefined; at += 997) {
      const damaged = Buffer.from(compressed);
      damaged.fill(0xff, at, at + 16);
      let yielded = 0;
      let failed: unknown;
      try {
        for await (const out of decompressed(input([damaged]).source)) yielded += out.length;
      } catch (err) {
        failed = err;
      }
      if (failed === undefined) continue;
      expect(String(failed)).toMatch(/ZStandard-compressed input cannot be read on/);
      // The same decoder given the same pieces: what it gave before it threw.
      let decoded = 0;
      const reference = new ZstdDecompress((chunk) => (decoded += chunk.length));
      try {
        for (let p = 0; p < damaged.length; p += 64 * 1024) reference.push(damaged.subarray(p, p + 64 * 1024), false);
        reference.push(new Uint8Array(0), true);
      } catch {
        // The damage.
      }
      found = { yielded, decoded };
    }
    expect(found).toBeDefined();
    expect(found?.decoded).toBeGreaterThan(0);
    expect(found?.yielded).toBe(found?.decoded);
  });

  it("checks each ZStandard frame's content checksum: damage that still decodes fails the input instead of passing as what was sent", async () => {
    const { h64Raw } = await xxhash();
    // A frame of one raw block (its content as it is) with its checksum: damage inside it still decodes.
    const rawFrame = (content: Buffer, checksumOf: Buffer = content): Buffer => {
      const header = Buffer.alloc(9);
      header.writeUInt32LE(0xfd2fb528, 0);
      header[4] = 0xa4; // one segment, a 4-byte content size, a checksum
      header.writeUInt32LE(content.length, 5);
      const block = Buffer.alloc(3);
      block.writeUIntLE(1 | (content.length << 3), 0, 3); // the last block, raw
      const checksum = Buffer.alloc(4);
      checksum.writeUInt32LE(Number(h64Raw(checksumOf, 0n) & 0xffffffffn), 0);
      return Buffer.concat([header, block, content, checksum]);
    };
    const lines = Buffer.from('{"amount":"12.34"}\n{"amount":"56.78"}\n');
    const damaged = Buffer.from(lines.toString().replace('12.34', '92.34'));
    const read = async (bytes: Buffer, size: number): Promise<{ text: string; failed?: unknown }> => {
      const out: Buffer[] = [];
      try {
        for await (const chunk of decompressed(input(pieces(bytes, size)).source)) out.push(chunk);
        return { text: Buffer.concat(out).toString() };
      } catch (failed) {
        return { text: Buffer.concat(out).toString(), failed };
      }
    };
    // Several frames (zstd's own and the raw one) and a skippable frame between them, in pieces of every size.
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0]), Buffer.from('abc')]);
    const whole = Buffer.concat([zstd(text), skippable, rawFrame(lines), zstd(lines)]);
    for (const size of [1, 3, 4096, whole.length]) {
      if (size === 1 && whole.length > 200_000) continue;
      expect(await read(whole, size), `whole, in pieces of ${size}`).toEqual({ text: `${text.toString()}${lines.toString()}${lines.toString()}` });
    }
    for (const size of [1, 5, 4096]) {
      // The damaged frame: its content decodes, its checksum says it is not what was sent.
      const result = await read(Buffer.concat([rawFrame(lines), rawFrame(damaged, lines), rawFrame(lines)]), size);
      expect(String(result.failed), `in pieces of ${size}`).toMatch(/ZStandard-compressed input cannot be read on .*a frame's content does not match its checksum: the data is damaged/);
      // What came before the damaged frame's end was handed on; nothing after it.
      expect(result.text.startsWith(lines.toString()), `in pieces of ${size}`).toBe(true);
      expect(result.text.length, `in pieces of ${size}`).toBeLessThanOrEqual(lines.length * 2);
    }
    // zstd's own output with one byte of its checksum changed.
    const compressed = zstd(text);
    compressed.writeUInt8(compressed.readUInt8(compressed.length - 1) ^ 0x01, compressed.length - 1);
    expect(String((await read(compressed, 4096)).failed)).toMatch(/does not match its checksum/);
    // Frames shorter than 18 bytes, which fzstd holds back until more bytes come: a file of one, lines appended a frame
    // each, a short one without a checksum before one with. Taken for damage once (the frame's end came before its content).
    const tiny = (line: string, ...options: string[]): Buffer => execFileSync('zstd', ['-q', '-c', ...options], { input: line });
    const long = '{"a":2,"b":"yyyyyyyyyyyyyyyyyyyy"}\n';
    for (const [name, bytes, want] of [
      ['one tiny frame', tiny('{}\n'), '{}\n'],
      ['lines appended a frame each', Buffer.concat([tiny(long), tiny('{}\n'), tiny(long)]), `${long}{}\n${long}`],
      ['a tiny frame without a checksum, then one with', Buffer.concat([tiny('{}\n', '--no-check'), tiny(long)]), `{}\n${long}`],
    ] as const) {
      if (name === 'one tiny frame') expect(bytes.length).toBeLessThan(18);
      for (const size of [1, 4096]) expect(await read(bytes, size), `${name}, in pieces of ${size}`).toEqual({ text: want });
    }
    // A frame without a checksum is read as before.
    expect(await read(execFileSync('zstd', ['-q', '-c', '--no-check'], { input: text }), 4096)).toEqual({ text: text.toString() });
  });

  it('closes its input when its reader stops early, for every format', async () => {
    for (const [name, bytes] of [['plain', text], ['gzip', gzipSync(text)], ['zstd', zstd(text)]] as const) {
      const { source, closed } = input(pieces(bytes, 256));
      for await (const chunk of decompressed(source)) {
        expect(chunk.length).toBeGreaterThan(0);
        break;
      }
      expect(closed(), name).toBe(true);
    }
  });

  it("passes the input's own error on as it is, and closes it", async () => {
    for (const [name, bytes] of [['plain', text], ['gzip', gzipSync(text)], ['zstd', zstd(text)]] as const) {
      const failure = Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' });
      const { source, closed } = input(pieces(bytes, 1024).slice(0, 3), failure);
      await expect((async () => {
        for await (const chunk of decompressed(source)) void chunk;
      })(), name).rejects.toBe(failure);
      expect(closed(), name).toBe(true);
    }
  });
});

describe('a ZStandard input made to expand', () => {
  it('is refused as it passes the bound, not held whole', async () => {
    // A few KB of zstd that would be 300 MB of zeros.
    const bomb = execFileSync('sh', ['-c', 'head -c 300000000 /dev/zero | zstd -q -c'], { maxBuffer: 1 << 30 });
    expect(bomb.length).toBeLessThan(1_000_000);
    const before = process.memoryUsage().rss;
    let peak = before;
    await expect(
      (async () => {
        for await (const chunk of decompressed(input([bomb]).source)) {
          void chunk;
          peak = Math.max(peak, process.memoryUsage().rss);
        }
      })(),
    ).rejects.toThrow(/the ZStandard-compressed input cannot be read on \(64 KiB expand past 64 MiB\)/);
    expect(peak - before).toBeLessThan(512 * 1024 * 1024);
  }, 60_000);
});
