import { Decompress } from 'fzstd';
import xxhash from 'xxhash-wasm';
import { FrameEnds } from './zstd-frames.js';

/** The hash functions, compiled once (WebAssembly) when a ZStandard input is first read. */
let hashing: ReturnType<typeof xxhash> | undefined;

/** XXH64 fed as the content is decoded. */
interface Hasher {
  update(input: Uint8Array): unknown;
  digest(): bigint;
}

/** The low 32 bits of a 64-bit hash, as a frame's checksum holds them. */
const LOW_32 = 0xffffffffn;

/**
 * A ZStandard stream decoder that also checks each frame's content
 * checksum, which fzstd skips: a frame whose content does not hash to the
 * checksum it ends with (bytes damaged in a file or a batch, yet still
 * decodable) throws, as gzip's CRC does in zlib, instead of handing on
 * what the damage made of it as if it were what was sent. A frame without
 * a checksum (zstd writes one by default; Kafka's producers do not) is
 * decoded as before. The content a frame's blocks give is handed to
 * `ondata` as it is decoded, so a damaged frame's earlier blocks may have
 * been handed on before its end shows the damage.
 */
export class CheckedZstd {
  private readonly frames = new FrameEnds();
  private decoder: Decompress;
  private hash: Hasher | undefined;

  private constructor(
    private readonly create64: ((seed?: bigint) => Hasher) | undefined,
    private readonly ondata: (data: Uint8Array) => void,
  ) {
    this.hash = create64?.(0n);
    this.decoder = this.frameDecoder();
  }

  /** A decoder; without WebAssembly (node --jitless), one that decodes as fzstd alone does, unchecked. */
  static async create(ondata: (data: Uint8Array) => void): Promise<CheckedZstd> {
    if (typeof WebAssembly === 'undefined') return new CheckedZstd(undefined, ondata);
    hashing ??= xxhash();
    return new CheckedZstd((await hashing).create64, ondata);
  }

  /** A decoder for the frame that comes next (and any skippable frames before it). */
  private frameDecoder(): Decompress {
    return new Decompress((data) => {
      this.hash?.update(data);
      this.ondata(data);
    });
  }

  /** Decodes `chunk` (the last when `final`); throws on bytes fzstd cannot decode and on a frame whose checksum does not match. */
  push(chunk: Uint8Array, final: boolean): void {
    const pieces = this.frames.split(chunk);
    if (pieces.length === 0 && final) this.decoder.push(chunk, true);
    pieces.forEach((piece, i) => {
      const end = piece.endsFrame;
      // A frame's last bytes are pushed as the end of a stream, to a decoder of its own: fzstd holds back a frame of
      // fewer than 18 bytes until more come (or the stream ends), which would leave its content to the next frame.
      this.decoder.push(piece.bytes, end !== undefined || (final && i === pieces.length - 1));
      if (end === undefined) return;
      this.decoder = this.frameDecoder();
      if (this.hash === undefined || this.create64 === undefined) return;
      // Every byte of the frame's content has been handed to ondata by now.
      const digest = Number(this.hash.digest() & LOW_32);
      this.hash = this.create64(0n);
      if (end.checksum !== null && end.checksum !== digest) throw new Error('a frame\'s content does not match its checksum: the data is damaged');
    });
  }
}
