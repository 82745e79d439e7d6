import { inflateSync } from 'node:zlib';

/**
 * A small PNG reader for tests: enough to count the pixels a rendered page
 * has painted. Handles 8-bit greyscale, RGB and RGBA, non-interlaced, which
 * is what pdftoppm writes.
 */
export interface DecodedPng {
  width: number;
  height: number;
  channels: number;
  pixels: Buffer;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 6: 4 };

export function decodePng(file: Buffer): DecodedPng {
  if (file.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG file');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const data = file.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const bitDepth = data[8];
      const colourType = data[9] ?? -1;
      if (bitDepth !== 8 || data[12] !== 0 || !(colourType in CHANNELS)) throw new Error('unsupported PNG variant');
      channels = CHANNELS[colourType] ?? 0;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels] ?? 0 : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] ?? 0 : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] ?? 0 : 0;
      const v = line[x] ?? 0;
      let out: number;
      switch (filter) {
        case 0: out = v; break;
        case 1: out = v + a; break;
        case 2: out = v + b; break;
        case 3: out = v + ((a + b) >> 1); break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          out = v + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      pixels[y * stride + x] = out & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** Pixels whose colour channels are not all near white. */
export function countInkedPixels(png: DecodedPng, threshold = 240): number {
  let inked = 0;
  const colourChannels = png.channels === 4 ? 3 : png.channels;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    for (let k = 0; k < colourChannels; k++) {
      if ((png.pixels[i + k] ?? 255) < threshold) {
        inked++;
        break;
      }
    }
  }
  return inked;
}
