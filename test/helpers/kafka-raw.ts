import { Socket } from 'node:net';

/**
 * Record batches built byte by byte, as the Kafka protocol defines them
 * (record batch format 2), and sent to the test broker in a Produce request
 * of version 3: for what no client here produces. The test broker takes
 * transactional producers but writes no markers of its own, so a test that
 * needs a partition ending in one (a control record batch, as a broker
 * appends when a transactional producer commits or aborts) sends it itself;
 * and a batch compressed as Java's producer does (Snappy in xerial framing)
 * comes from no client here either.
 */

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32c(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = (CRC32C_TABLE[(crc ^ b) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function varint(n: number): Buffer {
  // Zig-zag, then base 128.
  let z = (n << 1) ^ (n >> 31);
  const out: number[] = [];
  do {
    let byte = z & 0x7f;
    z >>>= 7;
    if (z !== 0) byte |= 0x80;
    out.push(byte);
  } while (z !== 0);
  return Buffer.from(out);
}

const int16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const int64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};
const text = (s: string): Buffer => Buffer.concat([int16(Buffer.byteLength(s)), Buffer.from(s)]);

/** Record batch attributes: the compression in the low three bits, then the transactional and control flags. */
export const COMPRESSION = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;
const TRANSACTIONAL = 0x10;
const CONTROL = 0x20;

function recordBytes(offsetDelta: number, key: Buffer | null, value: Buffer | null): Buffer {
  const body = Buffer.concat([
    Buffer.from([0]),
    varint(0),
    varint(offsetDelta),
    key === null ? varint(-1) : Buffer.concat([varint(key.length), key]),
    value === null ? varint(-1) : Buffer.concat([varint(value.length), value]),
    varint(0),
  ]);
  return Buffer.concat([varint(body.length), body]);
}

/**
 * A record batch (format 2) of `records`, their bytes passed through
 * `compress` under the `compression` attribute; the broker gives the batch its
 * offsets.
 */
export function recordBatch(
  records: ReadonlyArray<{ key: Buffer | null; value: Buffer | null }>,
  options: { compression?: number; compress?: (records: Buffer) => Buffer; flags?: number; producerId?: bigint } = {},
): Buffer {
  const raw = Buffer.concat(records.map((r, i) => recordBytes(i, r.key, r.value)));
  const payload = options.compress ? options.compress(raw) : raw;
  const now = BigInt(Date.now());
  const attributes = (options.compression ?? COMPRESSION.none) | (options.flags ?? 0);
  // From the attributes on: what the CRC covers.
  const covered = Buffer.concat([int16(attributes), int32(records.length - 1), int64(now), int64(now), int64(options.producerId ?? -1n), int16(0), int32(-1), int32(records.length), payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32c(covered));
  const afterLength = Buffer.concat([int32(0), Buffer.from([2]), crc, covered]);
  return Buffer.concat([int64(0n), int32(afterLength.length), afterLength]);
}

/** A record batch holding one control record: a COMMIT or ABORT marker of `producerId`'s transaction. */
export function markerBatch(kind: 'commit' | 'abort', producerId = -1n): Buffer {
  const key = Buffer.concat([int16(0), int16(kind === 'commit' ? 1 : 0)]);
  const value = Buffer.concat([int16(0), int32(0)]);
  return recordBatch([{ key, value }], { flags: TRANSACTIONAL | CONTROL, producerId });
}

/** Sends one Produce request of `recordSet` to a partition through the broker at `bootstrap`; rejects on any error code. */
export async function produceRaw(bootstrap: string, topic: string, partition: number, recordSet: Buffer): Promise<void> {
  const [host, port] = [bootstrap.slice(0, bootstrap.lastIndexOf(':')), Number(bootstrap.slice(bootstrap.lastIndexOf(':') + 1))];
  const body = Buffer.concat([
    int16(0), // Produce
    int16(3),
    int32(1), // correlation id
    text('afford-test-markers'),
    int16(-1), // no transactional id
    int16(-1), // acks: all
    int32(10_000),
    int32(1),
    text(topic),
    int32(1),
    int32(partition),
    int32(recordSet.length),
    recordSet,
  ]);
  const response = await new Promise<Buffer>((resolve, reject) => {
    const socket = new Socket();
    let got = Buffer.alloc(0);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer to the Produce request')));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 4 && got.length >= 4 + got.readInt32BE(0)) {
        socket.end();
        resolve(got.subarray(4, 4 + got.readInt32BE(0)));
      }
    });
    socket.connect(port, host, () => socket.write(Buffer.concat([int32(body.length), body])));
  });
  // correlation id, topics (1), name, partitions (1), partition, error code.
  let at = 4 + 4;
  at += 2 + response.readInt16BE(at);
  at += 4 + 4;
  const error = response.readInt16BE(at);
  if (error !== 0) throw new Error(`the broker refused the record batch with error code ${error}`);
}
