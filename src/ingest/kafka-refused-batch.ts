/**
 * A compressed record batch afford will not read: one that expands past the
 * codecs' bound (kafka-codecs.ts) or does not decompress at all. The client
 * (kafkajs) decodes a whole fetch response at once, so a codec that throws
 * fails the fetch of every partition in it, and the same fetch fails again
 * after each restart: one producer's bad batch stopped the consumer for good.
 *
 * Instead the codec gives the client stand-in records in the batch's place:
 * as many as the batch's header counts, the last at the batch's last offset.
 * The consumer drops the others (kafka-client.ts) and turns that last one
 * into a dead letter whose reason names the codec's refusal and the batch's
 * offsets, so that the partition moves past the batch, the rest of the
 * fetch is read, and the batch can be found on its topic by those offsets.
 *
 * The stand-ins are known by their bytes' buffer, which only this module
 * makes. A batch's header lies just before its records in the fetch
 * response the client decodes, and is read only when it checks out (the
 * record batch format, the codec, a length that ends where the records do);
 * a batch whose header does not, or that counts more records than
 * MAX_STAND_INS, is refused by the codec's error as before.
 */

/** From a record batch's first offset to its records: offset, length, epoch, magic, CRC, attributes, last offset delta, two timestamps, producer id and epoch, first sequence, record count. */
const HEADER_BYTES = 61;
/** What a batch's length counts of its header: from the leader epoch on. */
const LENGTH_COUNTED_FROM = 12;
/** The most records stood in for: the client makes an object of each. */
export const MAX_STAND_INS = 100_000;

export interface RefusedBatch {
  /** Why, and which offsets: the dead letter's reason. */
  reason: string;
  /** The batch's last offset, where the stand-in that carries the dead letter lies. */
  lastOffset: string;
}

const refusals = new WeakMap<ArrayBufferLike, RefusedBatch>();
let refusedCount = 0;

/** Zig-zag, then base 128, into `out` at `at`; returns where it ends. */
function putVarint(out: Buffer, at: number, n: number): number {
  let z = n >= 0 ? n * 2 : -n * 2 - 1;
  while (z >= 0x80) {
    out[at++] = (z & 0x7f) | 0x80;
    z = Math.floor(z / 0x80);
  }
  out[at++] = z;
  return at;
}

/** One stand-in record at `offsetDelta`: no key, an empty value (a view on the stand-ins' own buffer), no headers. */
const body = Buffer.alloc(16);
function putRecord(out: Buffer, at: number, offsetDelta: number): number {
  let end = 0;
  body[end++] = 0; // attributes
  end = putVarint(body, end, 0); // timestamp delta
  end = putVarint(body, end, offsetDelta);
  end = putVarint(body, end, -1); // key: null
  end = putVarint(body, end, 0); // value: empty
  end = putVarint(body, end, 0); // headers: none
  at = putVarint(out, at, end);
  body.copy(out, at, 0, end);
  return at + end;
}

/**
 * The stand-in records for the batch whose compressed records are
 * `payload` (a view on the fetch response), under compression `codec` (its
 * name, and its attribute's low bits), refused because `why`; undefined
 * when its header cannot be read or it counts too many records.
 */
export function standInRecords(payload: Buffer, codec: { name: string; attribute: number }, why: string): Buffer | undefined {
  const header = headerOf(payload, codec.attribute);
  if (header === undefined) return undefined;
  const firstOffset = header.readBigInt64BE(0);
  const lastDelta = header.readInt32BE(23);
  const count = header.readInt32BE(57);
  if (count <= 0 || count > MAX_STAND_INS || lastDelta < count - 1) return undefined;
  const out = Buffer.alloc(count * 16);
  let at = 0;
  for (let i = 0; i < count - 1; i++) at = putRecord(out, at, i);
  at = putRecord(out, at, lastDelta);
  const lastOffset = String(firstOffset + BigInt(lastDelta));
  const records = `${count.toLocaleString('en-GB')} record${count === 1 ? '' : 's'}, offsets ${firstOffset} to ${lastOffset}`;
  refusals.set(out.buffer, { reason: `the ${codec.name}-compressed record batch of ${records}, is not read: ${why}`, lastOffset });
  refusedCount++;
  return out.subarray(0, at);
}

/** The header of the batch whose compressed records are `payload`, when it lies before them and checks out. */
function headerOf(payload: Buffer, attribute: number): Buffer | undefined {
  const start = payload.byteOffset - HEADER_BYTES;
  if (start < 0) return undefined;
  const header = Buffer.from(payload.buffer, start, HEADER_BYTES);
  const batchLength = header.readInt32BE(8);
  if (header[16] !== 2 || (header.readInt16BE(21) & 0x07) !== attribute || batchLength !== HEADER_BYTES - LENGTH_COUNTED_FROM + payload.length) return undefined;
  return header;
}

/** Which batch `payload` is, as far as its header tells (first offset, CRC, length), or undefined when it cannot be read. */
export function batchIdentity(payload: Buffer, attribute: number): string | undefined {
  const header = headerOf(payload, attribute);
  return header === undefined ? undefined : `${header.readBigInt64BE(0)}:${header.readUInt32BE(17)}:${header.readInt32BE(8)}`;
}

/** The refused batch a record's value stands in for, or undefined for a record of the broker's. */
export function refusedBatchOf(value: Buffer | null): RefusedBatch | undefined {
  if (refusedCount === 0 || value === null) return undefined;
  return refusals.get(value.buffer);
}
