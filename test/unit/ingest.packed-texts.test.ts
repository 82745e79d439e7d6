import { describe, expect, it } from 'vitest';
import { packTexts, strictText, type PackedTexts } from '../../src/ingest/packed-texts.js';

/** The texts of packed values, each decoded as the fast path decodes a value its scan gives up on: null for one that is not UTF-8. */
function unpackTexts({ bytes, starts, ends }: PackedTexts): (string | null)[] {
  return Array.from(ends, (end, i) => strictText(bytes.subarray(starts[i], end)));
}

/** Views into one buffer, `gap` bytes of something else before each, as a Kafka client decodes a record batch. */
function viewsOf(texts: readonly string[], gap: number): Buffer[] {
  const whole = Buffer.from(texts.map((t) => `${'#'.repeat(gap)}${t}`).join(''));
  const views: Buffer[] = [];
  let at = 0;
  for (const t of texts) {
    const length = Buffer.byteLength(t);
    views.push(whole.subarray(at + gap, at + gap + length));
    at += gap + length;
  }
  return views;
}

describe('packed texts', () => {
  const texts = ['{"a":1}', '', 'café ☕', 'x'.repeat(300), '😀 and more'];

  it('gives back each text, a missing value as empty and one that is not UTF-8 as null', () => {
    const values = [Buffer.from(texts[0] as string), null, Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), Buffer.from(texts[2] as string), Buffer.from([])];
    expect(unpackTexts(packTexts(values))).toEqual([texts[0], '', null, texts[2], '']);
    expect(unpackTexts(packTexts([]))).toEqual([]);
  });

  it('copies values that lie in order in one buffer as one stretch, with what lies between them', () => {
    const views = viewsOf(texts, 20);
    const packed = packTexts(views);
    expect(unpackTexts(packed)).toEqual(texts);
    const span = (views.at(-1) as Buffer).byteOffset + (views.at(-1) as Buffer).length - (views[0] as Buffer).byteOffset;
    expect(packed.bytes.length).toBe(span);
    // A buffer of its own, not a view of the client's: the client's buffer can be let go of, and the copy sent to a thread.
    expect(packed.bytes.buffer).not.toBe((views[0] as Buffer).buffer);
    expect(packed.bytes.byteLength).toBe(packed.bytes.buffer.byteLength);
  });

  it('copies values one by one when they are out of order, in several buffers, or far apart', () => {
    const size = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    const views = viewsOf(texts, 20);
    const reordered = [views[3], views[0], views[1], views[4], views[2]] as Buffer[];
    expect(unpackTexts(packTexts(reordered))).toEqual([texts[3], texts[0], texts[1], texts[4], texts[2]]);
    expect(packTexts(reordered).bytes.length).toBe(size);
    const mixed = [...views.slice(0, 2), Buffer.from(texts[2] as string), ...views.slice(3)];
    expect(unpackTexts(packTexts(mixed))).toEqual(texts);
    expect(packTexts(mixed).bytes.length).toBe(size);
    // Two short values at either end of a large buffer: the bytes between them are not copied.
    const far = viewsOf(['{"first":1}', '{"last":2}'], 100_000);
    expect(unpackTexts(packTexts(far))).toEqual(['{"first":1}', '{"last":2}']);
    expect(packTexts(far).bytes.length).toBe(21);
  });
});
