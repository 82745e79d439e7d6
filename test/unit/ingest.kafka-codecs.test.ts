import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import * as lz4 from 'lz4js';
import * as snappy from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { gzipCodec, lz4Codec, MAX_DECOMPRESSED_BYTES, snappyCodec, zstdCodec } from '../../src/ingest/kafka-codecs.js';

// Records as a producer sends them: many alike, which is what compresses.
const sample = Buffer.from(Array.from({ length: 2000 }, (_, i) => `{"event_id":"e-${i}","amount":"-${i}.25","description":"CARD PAYMENT TO SHOP ${i % 17}"}`).join('\n'));

/** The zstd command line (Node 20's zlib has no ZStandard); the tests install it. */
function zstd(input: Buffer, options: string[] = []): Buffer {
  try {
    return execFileSync('zstd', ['-q', '-c', '--no-check', ...options], { input, maxBuffer: 1024 * 1024 * 1024 });
  } catch (err) {
    throw new Error(`this test needs the zstd command (run test/install-tools.sh): ${(err as Error).message}`, { cause: err });
  }
}

describe('the Kafka compression codecs', () => {
  it('read back what each compression made of the same records', async () => {
    expect(await gzipCodec.decompress(gzipSync(sample))).toEqual(sample);
    expect(await gzipCodec.decompress(await gzipCodec.compress({ buffer: sample }))).toEqual(sample);
    expect(await snappyCodec.decompress(await snappyCodec.compress({ buffer: sample }))).toEqual(sample);
    expect(await lz4Codec.decompress(await lz4Codec.compress({ buffer: sample }))).toEqual(sample);
    expect(await zstdCodec.decompress(zstd(sample))).toEqual(sample);
    // The highest level, streamed (no content size stated): its frame states a window of 128 MiB.
    expect(await zstdCodec.decompress(zstd(sample, ['--ultra', '-22']))).toEqual(sample);
    // Two frames one after the other, as a stream may hold.
    expect(await zstdCodec.decompress(Buffer.concat([zstd(sample), zstd(sample)]))).toEqual(Buffer.concat([sample, sample]));
  });

  it("refuse a ZStandard batch whose content does not match its frame's checksum, which still decodes", async () => {
    // With a checksum (zstd's --check), its last byte changed: the content is as sent, the checksum says otherwise.
    const checked = zstd(sample, ['--check']);
    expect(await zstdCodec.decompress(checked)).toEqual(sample);
    const damaged = Buffer.from(checked);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 1) ^ 0x10, damaged.length - 1);
    await expect(zstdCodec.decompress(damaged)).rejects.toThrow("a frame's content does not match its checksum: the data is damaged");
    // A batch of two frames, the first shorter than the 18 bytes fzstd waits for before it decodes a frame.
    const tinyFirst = Buffer.concat([zstd(Buffer.from('{}')), zstd(sample, ['--check'])]);
    expect(await zstdCodec.decompress(tinyFirst)).toEqual(Buffer.concat([Buffer.from('{}'), sample]));
  });

  it('refuse a batch that expands past the bound, before it takes the memory, whatever its header claims', async () => {
    const over = Buffer.alloc(MAX_DECOMPRESSED_BYTES + 1);
    const refused = /expands past 64 MiB/;
    // Real bombs: a few kilobytes that expand to just past the bound.
    await expect(gzipCodec.decompress(gzipSync(over))).rejects.toThrow(refused);
    await expect(zstdCodec.decompress(zstd(over))).rejects.toThrow(refused);
    await expect(lz4Codec.decompress(Buffer.from(lz4.compress(over)))).rejects.toThrow(refused);
    // Snappy's length comes first: a block claiming 1 GiB, with nothing behind it.
    await expect(snappyCodec.decompress(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x04, 0x00]))).rejects.toThrow(refused);
    // In Java's framing, blocks each within the bound that together pass it.
    const block = snappy.compress(Buffer.alloc(40 * 1024 * 1024));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(block.length);
    const framed = Buffer.concat([Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]), length, block, length, block]);
    await expect(snappyCodec.decompress(framed)).rejects.toThrow(refused);
    // A window past 128 MiB (zstd's --long=30: 1 GiB).
    await expect(zstdCodec.decompress(zstd(sample, ['--long=30']))).rejects.toThrow('states a window of 1024 MiB, past the 128 MiB afford reads');
    // A ZStandard frame of 17 bytes that states 2,000,000,000 bytes of content (fzstd would set that aside first).
    const claimed = Buffer.alloc(8);
    claimed.writeBigUInt64LE(2_000_000_000n);
    const rle = ((128 * 1024) << 3) | (1 << 1) | 1;
    const statedFrame = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0]), claimed, Buffer.from([rle & 0xff, (rle >> 8) & 0xff, (rle >> 16) & 0xff, 0x20])]);
    await expect(zstdCodec.decompress(statedFrame)).rejects.toThrow(refused);
    // An LZ4 frame whose header claims 256 MiB of content.
    const claim = Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x48, 0x40, 0, 0, 0, 0x10, 0, 0, 0, 0, 0x00, 0, 0, 0, 0]);
    await expect(lz4Codec.decompress(claim)).rejects.toThrow(refused);
  });

  it('refuse an LZ4 frame whose stated content size is not what its blocks hold, rather than cut it there', async () => {
    const frame = Buffer.from(lz4.compress(sample));
    const withSize = (stated: number) => {
      const size = Buffer.alloc(8);
      size.writeUInt32LE(stated, 0);
      return Buffer.concat([frame.subarray(0, 4), Buffer.from([(frame[4] as number) | 0x08, frame[5] as number]), size, frame.subarray(6)]);
    };
    expect(await lz4Codec.decompress(withSize(sample.length))).toEqual(sample);
    await expect(lz4Codec.decompress(withSize(100))).rejects.toThrow(`an LZ4 frame holds ${sample.length} bytes where its header states 100`);
  });

  it('say where a Java-framed Snappy batch is cut short', async () => {
    const block = snappy.compress(sample);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(block.length);
    const framed = Buffer.concat([Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]), length, block]);
    expect(await snappyCodec.decompress(framed)).toEqual(sample);
    await expect(snappyCodec.decompress(framed.subarray(0, framed.length - 10))).rejects.toThrow(/ends inside a block/);
    await expect(snappyCodec.decompress(Buffer.concat([framed, Buffer.from([0, 0])]))).rejects.toThrow(/ends inside a block length/);
  });
});
