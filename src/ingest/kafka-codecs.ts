import { promisify } from 'node:util';
import { gzip, unzip } from 'node:zlib';
import * as lz4 from 'lz4js';
import * as snappy from 'snappyjs';
import { statedSizes } from './zstd-frames.js';
import { CheckedZstd } from './zstd-checked.js';
import { batchIdentity, standInRecords } from './kafka-refused-batch.js';

/**
 * The compressions a Kafka producer may use on its record batches (gzip,
 * Snappy, LZ4, ZStandard), as the codecs kafkajs takes. kafkajs reads only
 * gzip by itself: a batch in any other compression stopped the consumer for
 * good. Each codec is bounded: a batch expands to at most
 * MAX_DECOMPRESSED_BYTES, whatever its header claims, so that a compressed
 * batch made to expand (a few kilobytes of zeros becomes gigabytes) is
 * refused with a message rather than taking the process's memory.
 *
 * afford's own producers (the DLQ, `afford produce`) compress nothing, but a
 * codec must also compress; ZStandard's cannot (its library only reads).
 *
 * What the client is given (readingBatches) does not throw for a batch it
 * refuses or cannot decompress: it gives stand-in records in its place,
 * which the consumer turns into a dead letter (kafka-refused-batch.ts), so
 * that one bad batch does not stop the fetch of every partition with it.
 */

/** The most one record batch may expand to: a broker's default limit on a batch is 1 MiB compressed. */
export const MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024;

/** The largest ZStandard window taken: the format's usual limit for decoders (zstd's own refuses more unless told). */
const MAX_ZSTD_WINDOW_BYTES = 128 * 1024 * 1024;

/** What kafkajs calls a codec. */
export interface KafkaCodec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

const tooLarge = (codec: string): Error =>
  new Error(`a ${codec}-compressed Kafka record batch expands past ${MAX_DECOMPRESSED_BYTES / 1024 / 1024} MiB, the most afford reads; it is refused`);

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export const gzipCodec: KafkaCodec = {
  compress: async ({ buffer }) => promisify(gzip)(buffer),
  // unzip, as kafkajs's own: a gzip or a zlib stream.
  decompress: async (buffer) => {
    try {
      return await promisify(unzip)(buffer, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('gzip');
      throw err;
    }
  },
};

/** The framing Java's Snappy streams (xerial) put around Snappy blocks: a header, then blocks each after its length. */
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_BYTES = 16;

export const snappyCodec: KafkaCodec = {
  compress: async ({ buffer }) => snappy.compress(buffer),
  decompress: async (buffer) => {
    const uncompress = (block: Buffer, room: number): Buffer => {
      try {
        return snappy.uncompress(block, room);
      } catch (err) {
        if (/too big/.test((err as Error).message)) throw tooLarge('Snappy');
        throw err;
      }
    };
    if (buffer.length < XERIAL_HEADER_BYTES || !buffer.subarray(0, XERIAL_MAGIC.length).equals(XERIAL_MAGIC)) return uncompress(buffer, MAX_DECOMPRESSED_BYTES);
    const blocks: Buffer[] = [];
    let total = 0;
    for (let at = XERIAL_HEADER_BYTES; at < buffer.length; ) {
      if (at + 4 > buffer.length) throw new Error('a Snappy-compressed Kafka record batch ends inside a block length');
      const size = buffer.readUInt32BE(at);
      at += 4;
      if (at + size > buffer.length) throw new Error('a Snappy-compressed Kafka record batch ends inside a block');
      const block = uncompress(buffer.subarray(at, at + size), MAX_DECOMPRESSED_BYTES - total);
      at += size;
      total += block.length;
      blocks.push(block);
    }
    return Buffer.concat(blocks, total);
  },
};

const LZ4_MAGIC = 0x184d2204;
/** The largest block of each block-size code of an LZ4 frame (4 to 7). */
const LZ4_BLOCK_BYTES: Record<number, number> = { 4: 64 * 1024, 5: 256 * 1024, 6: 1024 * 1024, 7: 4 * 1024 * 1024 };

/**
 * An LZ4 frame's most possible size, from its blocks (each at most the
 * frame's block size, or its own size when stored plain), and the content
 * size its header states, if it does: lz4js trusts the stated size and cuts
 * what passes it without a word, so afford sizes the output by the blocks
 * and compares.
 */
function lz4Frame(buffer: Buffer): { bound: number; stated?: number } {
  const need = (at: number, n: number): void => {
    if (at + n > buffer.length) throw new Error('an LZ4-compressed Kafka record batch ends early');
  };
  need(0, 7);
  if (buffer.readUInt32LE(0) !== LZ4_MAGIC) throw new Error('an LZ4-compressed Kafka record batch is not an LZ4 frame');
  const flags = buffer[4] as number;
  const blockBytes = LZ4_BLOCK_BYTES[((buffer[5] as number) >> 4) & 7];
  if (blockBytes === undefined) throw new Error('an LZ4 frame of an unknown block size');
  let at = 6;
  let stated: number | undefined;
  if (flags & 0x08) {
    need(at, 8);
    stated = buffer.readUInt32LE(at) + buffer.readUInt32LE(at + 4) * 2 ** 32;
    at += 8;
  }
  if (flags & 0x01) at += 4;
  at += 1;
  let bound = 0;
  for (;;) {
    need(at, 4);
    const size = buffer.readUInt32LE(at);
    at += 4;
    if (size === 0) break;
    const stored = size & 0x7fffffff;
    bound += size & 0x80000000 ? stored : blockBytes;
    if (bound > MAX_DECOMPRESSED_BYTES) throw tooLarge('LZ4');
    at += stored + (flags & 0x10 ? 4 : 0);
  }
  return { bound, ...(stated !== undefined ? { stated } : {}) };
}

export const lz4Codec: KafkaCodec = {
  compress: async ({ buffer }) => asBuffer(lz4.compress(buffer)),
  decompress: async (buffer) => {
    const { bound, stated } = lz4Frame(buffer);
    if (stated !== undefined && stated > MAX_DECOMPRESSED_BYTES) throw tooLarge('LZ4');
    const out = new Uint8Array(bound);
    const size = lz4.decompressFrame(buffer, out);
    if (stated !== undefined && size !== stated) throw new Error(`an LZ4 frame holds ${size} bytes where its header states ${stated}`);
    return asBuffer(out.subarray(0, size));
  },
};

export const zstdCodec: KafkaCodec = {
  compress: async () => {
    throw new Error('afford does not compress with ZStandard');
  },
  decompress: async (buffer) => {
    // What fzstd would set aside for a frame before it writes a byte: its stated content, or its window. A window
    // larger than the bound is what the highest levels use (128 MiB at level 22) and is only set aside as address
    // space, written no further than the content; up to MAX_ZSTD_WINDOW_BYTES it is taken.
    const stated = statedSizes(buffer);
    if (stated.content > MAX_DECOMPRESSED_BYTES) throw tooLarge('ZStandard');
    if (stated.window > MAX_ZSTD_WINDOW_BYTES) {
      throw new Error(`a ZStandard-compressed Kafka record batch states a window of ${Math.round(stated.window / 1024 / 1024)} MiB, past the ${MAX_ZSTD_WINDOW_BYTES / 1024 / 1024} MiB afford reads; it is refused`);
    }
    const parts: Uint8Array[] = [];
    let total = 0;
    const stream = await CheckedZstd.create((chunk) => {
      total += chunk.length;
      if (total > MAX_DECOMPRESSED_BYTES) throw tooLarge('ZStandard');
      parts.push(chunk);
    });
    stream.push(buffer, true);
    return Buffer.concat(parts, total);
  },
};

/** The compression attribute of each codec, as a record batch's header gives it. */
const ATTRIBUTE = { gzip: 1, Snappy: 2, LZ4: 3, ZStandard: 4 } as const;

/**
 * A failure of the process rather than of the batch: memory it could not
 * have this time. The batch may read the next time, so it is not
 * dead-lettered at once; the fetch fails, and is tried again, as before,
 * up to MEMORY_TRIES times for the same batch. A batch that needs more than
 * the process ever has (a 128 MiB window in a small container) would
 * otherwise hold its fetch for ever.
 */
function passing(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (code === 'ERR_MEMORY_ALLOCATION_FAILED' || code === 'Z_MEM_ERROR' || code === 'ENOMEM') return true;
  return err instanceof RangeError && /allocation failed/i.test(err.message);
}

export const MEMORY_TRIES = 3;
/** Batches that failed for want of memory, by their identity (kafka-refused-batch.ts), and how many times. */
const memoryFailures = new Map<string, number>();

/** Whether a batch that failed for want of memory is tried again (the error thrown) rather than stood in for. */
function tryAgain(buffer: Buffer, attribute: number): boolean {
  const batch = batchIdentity(buffer, attribute);
  if (batch === undefined) return true;
  const tries = (memoryFailures.get(batch) ?? 0) + 1;
  if (memoryFailures.size >= 1000) memoryFailures.clear();
  memoryFailures.set(batch, tries);
  return tries < MEMORY_TRIES;
}

/** `codec` as the client is given it: a batch it refuses, or cannot decompress, becomes stand-in records (kafka-refused-batch.ts). */
export function readingBatches(codec: KafkaCodec, name: keyof typeof ATTRIBUTE): KafkaCodec {
  return {
    compress: (encoder) => codec.compress(encoder),
    decompress: async (buffer) => {
      try {
        return await codec.decompress(buffer);
      } catch (err) {
        if (passing(err) && tryAgain(buffer, ATTRIBUTE[name])) throw err;
        const records = standInRecords(buffer, { name, attribute: ATTRIBUTE[name] }, (err as Error).message ?? String(err));
        if (records === undefined) throw err;
        return records;
      }
    },
  };
}
