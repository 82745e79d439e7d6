/**
 * The sizes ZStandard frames state in their headers, read before fzstd
 * decodes them: fzstd sets aside a frame's stated window (or its stated
 * content size) before it writes a byte, up to 2 GiB, so a frame of a few
 * bytes claiming that much is refused here instead. (RFC 8878, sections 3.1.1
 * to 3.1.2.)
 */

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

/** The largest window and the largest content size the frames of `bytes` state (0 where none states one). */
export interface StatedSizes {
  window: number;
  content: number;
}

/** What the frames of `bytes` state; throws on bytes that are not ZStandard frames. */
export function statedSizes(bytes: Uint8Array): StatedSizes {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const largest = { window: 0, content: 0 };
  const need = (n: number): void => {
    if (at + n > bytes.length) throw new Error('a ZStandard frame ends early');
  };
  while (at < bytes.length) {
    need(4);
    const magic = view.getUint32(at, true);
    at += 4;
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(4);
      at += 4 + view.getUint32(at, true);
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw new Error('not a ZStandard frame');
    need(1);
    const descriptor = bytes[at++] as number;
    const contentSizeFlag = descriptor >> 6;
    const singleSegment = (descriptor >> 5) & 1;
    const checksum = (descriptor >> 2) & 1;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number;
    let window = 0;
    if (!singleSegment) {
      need(1);
      const wd = bytes[at++] as number;
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    at += dictionaryBytes;
    const contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag] as number;
    need(contentSizeBytes);
    let content = 0;
    if (contentSizeBytes === 1) content = bytes[at] as number;
    else if (contentSizeBytes === 2) content = view.getUint16(at, true) + 256;
    else if (contentSizeBytes === 4) content = view.getUint32(at, true);
    else if (contentSizeBytes === 8) content = view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;
    at += contentSizeBytes;
    // A frame of one segment states no window: its content size is its window.
    largest.window = Math.max(largest.window, singleSegment ? content : window);
    largest.content = Math.max(largest.content, content);
    // The blocks, to find the next frame: a 3-byte header each (last flag, type, size); an RLE block holds 1 byte.
    for (let last = 0; !last; ) {
      need(3);
      const header = (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
      at += 3;
      last = header & 1;
      const type = (header >> 1) & 3;
      if (type === 3) throw new Error('a ZStandard block of the reserved type');
      const size = header >>> 3;
      at += type === 1 ? 1 : size;
    }
    at += checksum * 4;
    if (at > bytes.length) throw new Error('a ZStandard frame ends early');
  }
  return largest;
}
