import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { affordError, affordErrorCausedBy } from '../domain/errors.js';
import { CheckedZstd } from './zstd-checked.js';

/**
 * An input file's bytes, decompressed when they come compressed: gzip (a
 * `.ndjson.gz` as data teams ship them, several members one after another
 * included) and ZStandard, told by their first bytes whatever the file is
 * called, so that standard input works too. A compression afford does not
 * read (xz, bzip2, a zip archive) is refused as a whole: read as lines, its
 * bytes made one dead letter of garbage a line. Anything else passes as it is.
 */

const MAGIC = {
  gzip: Buffer.from([0x1f, 0x8b]),
  zstd: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]),
  xz: Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]),
  bzip2: Buffer.from('BZh'),
  zip: Buffer.from([0x50, 0x4b, 0x03, 0x04]),
} as const;
const LONGEST_MAGIC = Math.max(...Object.values(MAGIC).map((m) => m.length));

type Format = 'plain' | 'gzip' | 'zstd' | 'xz' | 'bzip2' | 'zip';

function formatOf(start: Buffer): Format {
  for (const [name, magic] of Object.entries(MAGIC) as [Exclude<Format, 'plain'>, Buffer][]) {
    if (start.length >= magic.length && start.subarray(0, magic.length).equals(magic)) return name;
  }
  return 'plain';
}

async function* gunzipped(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const source = Readable.from(chunks);
  // The input's errors end the decompressed stream too; a stream left early (or damaged) closes the input.
  const piped = new Promise<void>((resolve) => pipeline(source, gunzip, () => resolve()));
  try {
    for await (const out of gunzip) yield out as Buffer;
  } catch (err) {
    // zlib's own errors are the data's (Z_DATA_ERROR, Z_BUF_ERROR for a cut-off end); any other is the input's.
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('Z_')) throw affordErrorCausedBy(err, 'INPUT_DECOMPRESS_FAILED', 'gzip', (err as Error).message);
    throw err;
  } finally {
    gunzip.destroy();
    await piped;
  }
}

/** Compressed bytes given to the ZStandard decoder at a time, so that what one piece expands to is yielded before the next. */
const ZSTD_PIECE = 64 * 1024;
/** The most one piece may expand to: JSON lines compress some ten times, a stream made to expand ten thousand. */
const ZSTD_PIECE_OUTPUT = 64 * 1024 * 1024;

async function* unzstd(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const stream = await CheckedZstd.create((data) => {
    pendingBytes += data.byteLength;
    if (pendingBytes > ZSTD_PIECE_OUTPUT) throw new Error(`${ZSTD_PIECE / 1024} KiB expand past ${ZSTD_PIECE_OUTPUT / 1024 / 1024} MiB`);
    pending.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
  // The error of a piece that fails, returned rather than thrown, so that what its blocks before the damage gave is
  // handed on first: the lines read before the damage stand.
  const push = (chunk: Uint8Array, final: boolean): Error | undefined => {
    try {
      stream.push(chunk, final);
      return undefined;
    } catch (err) {
      return affordErrorCausedBy(err, 'INPUT_DECOMPRESS_FAILED', 'ZStandard', (err as Error).message);
    }
  };
  const drain = (): Buffer[] => {
    const out = pending;
    pending = [];
    pendingBytes = 0;
    return out;
  };
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += ZSTD_PIECE) {
      const failed = push(chunk.subarray(at, at + ZSTD_PIECE), false);
      yield* drain();
      if (failed) throw failed;
    }
  }
  const failed = push(new Uint8Array(0), true);
  yield* drain();
  if (failed) throw failed;
}

const asBuffer = (chunk: Buffer | string): Buffer => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);

/** The input's bytes, decompressed if its first bytes say so. */
export async function* decompressed(input: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  const iterator = input[Symbol.asyncIterator]();
  // The first bytes, enough to tell the format: a pipe may give them a few at a time.
  const lead: Buffer[] = [];
  let leadBytes = 0;
  let ended = false;
  while (leadBytes < LONGEST_MAGIC) {
    const step = await iterator.next();
    if (step.done) {
      ended = true;
      break;
    }
    const chunk = asBuffer(step.value);
    lead.push(chunk);
    leadBytes += chunk.length;
  }
  const rest: AsyncIterable<Buffer> = {
    async *[Symbol.asyncIterator]() {
      let done = ended;
      try {
        yield* lead;
        while (!done) {
          const step = await iterator.next();
          if (step.done === true) {
            done = true;
            return;
          }
          yield asBuffer(step.value);
        }
      } finally {
        // Left early (a failed batch, an abort, a damaged stream): the input is closed, as a loop over it would.
        if (!done) await iterator.return?.();
      }
    },
  };
  const format = formatOf(Buffer.concat(lead, leadBytes));
  switch (format) {
    case 'plain':
      yield* rest;
      return;
    case 'gzip':
      yield* gunzipped(rest);
      return;
    case 'zstd':
      yield* unzstd(rest);
      return;
    default:
      await iterator.return?.();
      throw affordError('INPUT_COMPRESSION_UNREADABLE', format);
  }
}
