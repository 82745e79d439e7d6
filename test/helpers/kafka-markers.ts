import { Socket } from 'node:net';

/**
 * Writes a transaction marker (a control record batch, as a broker appends
 * when a transactional producer commits or aborts) onto a partition of the
 * test broker. The test broker takes transactional producers but writes no
 * markers of its own, so a test that needs a partition ending in one sends
 * the batch itself, in a Produce request built here byte by byte, as the
 * Kafka protocol defines it (record batch format 2, Produce version 3).
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

/** A record batch holding one control record: a COMMIT or ABORT marker of `producerId`'s transaction. */
export function markerBatch(kind: 'commit' | 'abort', producerId = -1n): Buffer {
  const key = Buffer.concat([int16(0), int16(kind === 'commit' ? 1 : 0)]);
  const value = Buffer.concat([int16(0), int32(0)]);
  const body = Buffer.concat([Buffer.from([0]), varint(0), varint(0), varint(key.length), key, varint(value.length), value, varint(0)]);
  const record = Buffer.concat([varint(body.length), body]);
  const now = BigInt(Date.now());
  // From the attributes on: what the CRC covers. Attributes: transactional (0x10) and control (0x20).
  const covered = Buffer.concat([int16(0x30), int32(0), int64(now), int64(now), int64(producerId), int16(0), int32(-1), int32(1), record]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32c(covered));
  const afterLength = Buffer.concat([int32(0), Buffer.from([2]), crc, covered]);
  return Buffer.concat([int64(0n), int32(afterLength.length), afterLength]);
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
  if (error !== 0) throw new Error(`the broker refused the marker batch with error code ${error}`);
}
