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

/** A piece of a ZStandard stream, and when it ends a frame, that frame's content checksum (null when it carries none). */
export interface FramePiece {
  bytes: Uint8Array;
  endsFrame?: { checksum: number | null };
}

type FrameField = 'magic' | 'skippable size' | 'descriptor' | 'header' | 'block header' | 'checksum';

/**
 * Finds where each frame of a ZStandard stream ends, and the content
 * checksum it ends with, as the compressed bytes pass a chunk at a time
 * (RFC 8878, sections 3.1.1 to 3.1.1.2: the frame header, the blocks, each
 * after a 3-byte header, and an optional 4-byte checksum, the low 32 bits
 * of the XXH64 of the frame's content). The bytes are handed on whole, cut
 * only where a frame ends. On bytes that are no ZStandard frame it stops
 * looking, and the decoder says what is wrong with them.
 */
export class FrameEnds {
  private field: FrameField | 'lost' = 'magic';
  private need = 4;
  private readonly held: number[] = [];
  /** Bytes still to pass as they are: a skippable frame's content, or a block's. */
  private passing = 0;
  /** Whether what passes is a block's content (rather than a skippable frame's). */
  private inBlock = false;
  private lastBlock = false;
  private checksummed = false;

  /** `chunk` cut where frames end in it. */
  split(chunk: Uint8Array): FramePiece[] {
    const pieces: FramePiece[] = [];
    let from = 0;
    let at = 0;
    while (at < chunk.length && this.field !== 'lost') {
      let ended: { checksum: number | null } | undefined;
      if (this.passing > 0) {
        const n = Math.min(this.passing, chunk.length - at);
        this.passing -= n;
        at += n;
        if (this.passing === 0 && this.inBlock) ended = this.blockEnded();
      } else {
        this.held.push(chunk[at++] as number);
        if (this.held.length < this.need) continue;
        ended = this.fieldRead();
        this.held.length = 0;
      }
      if (ended) {
        pieces.push({ bytes: chunk.subarray(from, at), endsFrame: ended });
        from = at;
      }
    }
    if (from < chunk.length) pieces.push({ bytes: chunk.subarray(from) });
    return pieces;
  }

  private u32(): number {
    const b = this.held;
    return ((b[0] as number) | ((b[1] as number) << 8) | ((b[2] as number) << 16) | ((b[3] as number) << 24)) >>> 0;
  }

  /** Acts on a whole field; returns the frame's end when the field ends one. */
  private fieldRead(): { checksum: number | null } | undefined {
    switch (this.field) {
      case 'magic': {
        const magic = this.u32();
        if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) [this.field, this.need] = ['skippable size', 4];
        else if (magic === ZSTD_MAGIC) [this.field, this.need] = ['descriptor', 1];
        else this.field = 'lost';
        return undefined;
      }
      case 'skippable size':
        this.passing = this.u32();
        this.inBlock = false;
        [this.field, this.need] = ['magic', 4];
        return undefined;
      case 'descriptor': {
        const d = this.held[0] as number;
        const singleSegment = (d >> 5) & 1;
        this.checksummed = ((d >> 2) & 1) === 1;
        const rest = (singleSegment ? 0 : 1) + ([0, 1, 2, 4][d & 3] as number) + ([singleSegment ? 1 : 0, 2, 4, 8][d >> 6] as number);
        [this.field, this.need] = rest > 0 ? ['header', rest] : ['block header', 3];
        return undefined;
      }
      case 'header':
        [this.field, this.need] = ['block header', 3];
        return undefined;
      case 'block header': {
        const header = (this.held[0] as number) | ((this.held[1] as number) << 8) | ((this.held[2] as number) << 16);
        this.lastBlock = (header & 1) === 1;
        const type = (header >> 1) & 3;
        this.passing = type === 1 ? 1 : header >>> 3;
        this.inBlock = this.passing > 0;
        // A block of no bytes (a raw block of size 0) ends with its header.
        return this.passing === 0 ? this.blockEnded() : undefined;
      }
      case 'checksum':
        [this.field, this.need] = ['magic', 4];
        return { checksum: this.u32() };
      default:
        return undefined;
    }
  }

  /** A block's bytes have passed: the next block, the checksum, or the frame's end. */
  private blockEnded(): { checksum: number | null } | undefined {
    this.inBlock = false;
    if (!this.lastBlock) {
      [this.field, this.need] = ['block header', 3];
      return undefined;
    }
    if (this.checksummed) {
      [this.field, this.need] = ['checksum', 4];
      return undefined;
    }
    [this.field, this.need] = ['magic', 4];
    return { checksum: null };
  }
}
