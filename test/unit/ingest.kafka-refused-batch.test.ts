import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipCodec, MEMORY_TRIES, readingBatches } from '../../src/ingest/kafka-codecs.js';
import { MAX_STAND_INS, refusedBatchOf } from '../../src/ingest/kafka-refused-batch.js';
import { COMPRESSION, recordBatch } from '../helpers/kafka-raw.js';

/**
 * What the client makes of a record batch whose codec refuses it, decoded
 * by the client's own record batch decoder: stand-in records, the last at
 * the batch's last offset and carrying the reason, rather than an error
 * that fails the whole fetch.
 */

const require = createRequire(import.meta.url);
type DecodedRecord = { offset: string; key: Buffer | null; value: Buffer | null };
const Decoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => unknown;
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (decoder: unknown) => Promise<{ records: DecodedRecord[] }>;
const { CompressionCodecs, CompressionTypes } = require('kafkajs') as { CompressionCodecs: { [k: number]: () => unknown }; CompressionTypes: { GZIP: number } };

const records = (n: number) => Array.from({ length: n }, (_, i) => ({ key: null, value: Buffer.from(`record ${i}`) }));
/** A batch as the broker gives it (its first offset set), inside the bytes of a larger response, as the client decodes it. */
function inResponse(batch: Buffer, firstOffset: bigint): Buffer {
  const copy = Buffer.from(batch);
  copy.writeBigInt64BE(firstOffset, 0);
  return Buffer.concat([Buffer.from('some bytes before'), copy]).subarray(17);
}

describe('a record batch its codec refuses', () => {
  const bomb = () => gzipSync(Buffer.alloc(70 * 1024 * 1024));

  it('decodes as stand-ins for its offsets, the last one carrying why and where', async () => {
    const previous = CompressionCodecs[CompressionTypes.GZIP];
    CompressionCodecs[CompressionTypes.GZIP] = () => readingBatches(gzipCodec, 'gzip');
    try {
      const batch = inResponse(recordBatch(records(4), { compression: COMPRESSION.gzip, compress: bomb }), 1000n);
      const decoded = await decodeRecordBatch(new Decoder(batch));
      expect(decoded.records.map((r) => r.offset)).toEqual(['1000', '1001', '1002', '1003']);
      const refused = decoded.records.map((r) => refusedBatchOf(r.value));
      expect(refused.every((r) => r !== undefined && r.lastOffset === '1003')).toBe(true);
      expect(refused[3]?.reason).toBe(
        'the gzip-compressed record batch of 4 records, offsets 1000 to 1003, is not read: a gzip-compressed Kafka record batch expands past 64 MiB, the most afford reads; it is refused',
      );
      // A batch the codec reads is the broker's records, none of them a stand-in.
      const good = await decodeRecordBatch(new Decoder(inResponse(recordBatch(records(2), { compression: COMPRESSION.gzip, compress: (raw) => gzipSync(raw) }), 7n)));
      expect(good.records.map((r) => [r.offset, r.value?.toString(), refusedBatchOf(r.value)])).toEqual([
        ['7', 'record 0', undefined],
        ['8', 'record 1', undefined],
      ]);
    } finally {
      CompressionCodecs[CompressionTypes.GZIP] = previous as () => unknown;
    }
  });

  it('is refused by the error as before when its header cannot be trusted or it counts too many records', async () => {
    const codec = readingBatches(gzipCodec, 'gzip');
    // No batch header before the bytes.
    await expect(codec.decompress(bomb())).rejects.toThrow(/expands past 64 MiB/);
    // A header whose compression is not the codec's.
    const lz4Labelled = inResponse(recordBatch(records(2), { compression: COMPRESSION.lz4, compress: bomb }), 0n);
    await expect(codec.decompress(lz4Labelled.subarray(61))).rejects.toThrow(/expands past 64 MiB/);
    // More records than are stood in for: the client would make an object of each.
    const many = inResponse(recordBatch(records(2), { compression: COMPRESSION.gzip, compress: bomb }), 0n);
    many.writeInt32BE(MAX_STAND_INS + 1, 57);
    many.writeInt32BE(MAX_STAND_INS, 23);
    await expect(codec.decompress(many.subarray(61))).rejects.toThrow(/expands past 64 MiB/);
    // A last offset delta below its count of records.
    const short = inResponse(recordBatch(records(3), { compression: COMPRESSION.gzip, compress: bomb }), 0n);
    short.writeInt32BE(1, 23);
    await expect(codec.decompress(short.subarray(61))).rejects.toThrow(/expands past 64 MiB/);
    // The same batch as it was made is stood in for.
    const whole = inResponse(recordBatch(records(3), { compression: COMPRESSION.gzip, compress: bomb }), 0n);
    await expect(codec.decompress(whole.subarray(61))).resolves.toBeInstanceOf(Buffer);
  });

  it('is not dead-lettered when the codec fails for want of memory, until the same batch has failed so three times', async () => {
    const failing = (err: Error) => readingBatches({ compress: gzipCodec.compress, decompress: async () => Promise.reject(err) }, 'gzip');
    const batch = (offset: bigint) => inResponse(recordBatch(records(3), { compression: COMPRESSION.gzip, compress: (raw) => gzipSync(raw) }), offset).subarray(61);
    const noMemory = Object.assign(new Error('Cannot allocate memory'), { code: 'ERR_MEMORY_ALLOCATION_FAILED' });
    const allocation = new RangeError('Array buffer allocation failed');
    expect(MEMORY_TRIES).toBe(3);
    // The same batch (its first offset, CRC and length) fetched again and again, as the consumer does: its bytes are
    // made once, as the batch's timestamps, and so its CRC, change with the clock.
    const same = batch(500n);
    const again = () => Buffer.concat([Buffer.alloc(61), Buffer.from(same.buffer, same.byteOffset - 61, 61 + same.length)]).subarray(122);
    await expect(failing(noMemory).decompress(again())).rejects.toBe(noMemory);
    await expect(failing(allocation).decompress(again())).rejects.toBe(allocation);
    const third = await failing(allocation).decompress(again());
    expect(third).toBeInstanceOf(Buffer);
    // Another batch starts its own count.
    await expect(failing(allocation).decompress(batch(900n))).rejects.toBe(allocation);
    // The batch's own fault is stood in for at once.
    await expect(failing(new Error('incorrect header check')).decompress(batch(1200n))).resolves.toBeInstanceOf(Buffer);
  });
});
