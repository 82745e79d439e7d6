/**
 * Texts as UTF-8 bytes in one buffer, the way a Kafka batch's values travel
 * to the fast path's worker thread: one copy of the bytes rather than a
 * string decoded on the writer's thread for every message and copied again
 * to the worker. Item i is bytes `starts[i]` to `ends[i]`.
 */
export interface PackedTexts {
  bytes: Uint8Array;
  starts: Uint32Array;
  ends: Uint32Array;
}

/**
 * Packs values (a missing one as empty) into a buffer of their own. Values
 * that lie in order in one buffer (a Kafka client's, decoded from one
 * record batch) are copied as the one stretch from the first to the last,
 * the bytes between them included (while those are not the most of it):
 * one copy rather than one per value.
 */
export function packTexts(values: readonly (Uint8Array | null)[]): PackedTexts {
  const starts = new Uint32Array(values.length);
  const ends = new Uint32Array(values.length);
  const first = values.find((v) => v !== null);
  const buffer = first?.buffer;
  const from = first?.byteOffset ?? 0;
  let shared = buffer !== undefined;
  let to = from;
  let size = 0;
  for (let i = 0; i < values.length && shared; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      starts[i] = ends[i] = to - from;
      continue;
    }
    const offset = v.byteOffset;
    if (offset < to || v.buffer !== buffer) shared = false;
    starts[i] = offset - from;
    to = offset + v.length;
    ends[i] = to - from;
    size += v.length;
  }
  // Values far apart (what lies between them outweighs them) are copied one by one instead.
  if (shared && buffer !== undefined && to - from <= 2 * size + 4096) return { bytes: new Uint8Array(buffer.slice(from, to)), starts, ends };
  size = 0;
  for (const v of values) size += v?.length ?? 0;
  const bytes = new Uint8Array(size);
  let at = 0;
  values.forEach((v, i) => {
    starts[i] = at;
    if (v !== null) {
      bytes.set(v, at);
      at += v.length;
    }
    ends[i] = at;
  });
  return { bytes, starts, ends };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes as strict UTF-8 text (a byte order mark kept as a character), or
 * null when they are not valid UTF-8: the one decoding every ingest source
 * uses, so that a line or message reads the same wherever it is decoded.
 */
export function strictText(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
