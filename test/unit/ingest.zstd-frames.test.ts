import { describe, expect, it } from 'vitest';
import { FrameEnds, type FramePiece } from '../../src/ingest/zstd-frames.js';

/** A frame header: the magic number and a descriptor for one segment, a 1-byte content size, and a checksum or none. */
const header = (contentSize: number, checksum: boolean): number[] => [0x28, 0xb5, 0x2f, 0xfd, 0x20 | (checksum ? 0x04 : 0), contentSize];
/** A block header: last or not, its type (0 raw, 1 RLE, 2 compressed) and size. */
const block = (last: boolean, type: number, size: number): number[] => {
  const h = (last ? 1 : 0) | (type << 1) | (size << 3);
  return [h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff];
};
const le32 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

/** The pieces FrameEnds cuts `bytes` into, given `size` bytes at a time, joined back where no frame ended between them. */
function ends(bytes: number[], size: number): { bytes: number[]; checksum?: number | null }[] {
  const frames = new FrameEnds();
  const out: { bytes: number[]; checksum?: number | null }[] = [{ bytes: [] }];
  for (let at = 0; at < bytes.length; at += size) {
    for (const piece of frames.split(Uint8Array.from(bytes.slice(at, at + size))) as FramePiece[]) {
      const open = out.at(-1) as { bytes: number[]; checksum?: number | null };
      open.bytes.push(...piece.bytes);
      if (piece.endsFrame) {
        open.checksum = piece.endsFrame.checksum;
        out.push({ bytes: [] });
      }
    }
  }
  return out;
}

describe('the ends of ZStandard frames, found as the bytes pass', () => {
  it('cuts after each frame (its checksum included) and gives the checksum, whatever the pieces', () => {
    const checked = [...header(3, true), ...block(false, 0, 2), 0x61, 0x62, ...block(true, 1, 1), 0x63, ...le32(0xdeadbeef)];
    const empty = [...header(0, false), ...block(true, 0, 0)];
    const skippable = [0x50, 0x2a, 0x4d, 0x18, ...le32(2), 0x00, 0x00, 0x5f, 0x2a, 0x4d, 0x18, ...le32(0)];
    const third = [...header(1, true), ...block(true, 1, 1), 0x7a, ...le32(7)];
    const stream = [...checked, ...empty, ...skippable, ...third];
    for (const size of [1, 2, 3, 5, 7, stream.length]) {
      expect(ends(stream, size), `in pieces of ${size}`).toEqual([
        { bytes: checked, checksum: 0xdeadbeef },
        // A frame of one empty raw block ends with its block's header; it carries no checksum.
        { bytes: empty, checksum: null },
        // Skippable frames end no frame of content: they go with the frame after them.
        { bytes: [...skippable, ...third], checksum: 7 },
        { bytes: [] },
      ]);
    }
  });

  it('stops looking at bytes that are no frame, and hands them on whole for the decoder to refuse', () => {
    const junk = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(ends(junk, 3)).toEqual([{ bytes: junk }]);
  });
});
