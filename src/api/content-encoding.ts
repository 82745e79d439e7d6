import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { apiError } from './errors.js';

/**
 * Request bodies sent compressed, as HTTP clients do for large uploads (an
 * ingestion of 1,000 transactions is about a megabyte of JSON): gzip,
 * deflate and br are decompressed before the body is parsed, and the route's
 * body limit holds for what they expand to, so a small body made to expand
 * is refused with 413 as it passes the limit. Any other coding is answered
 * 415, as HTTP says: it used to be parsed as if it were plain (a gzip body
 * was "not valid UTF-8", and a body labelled br but sent plain was taken).
 *
 * Written here rather than through @fastify/compress: that plugin also
 * compresses answers (twelve packages for what these lines do), matches a
 * coding's name case by case, and reports a damaged body by copying its own
 * fields onto the decompressor's error.
 */

/** Said in Accept-Encoding with a 415, as HTTP asks of a server refusing a request's coding. */
export const ACCEPTED_CODINGS = 'gzip, deflate, br';

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The decoded stream, with the count of bytes received as sent, which Fastify checks against Content-Length and the limit. */
type Decoded = Transform & { receivedEncodedLength: number };

export function installContentDecoding(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, reply, payload: Readable) => {
    const header = request.headers['content-encoding'];
    // Only a body has a coding: a call without one (a GET) is answered as ever, whatever the header says.
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (header === undefined || !hasBody) return payload;
    // Codings are named case-insensitively and listed in the order applied; identity is none.
    const codings = header
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '' && c !== 'identity');
    if (codings.length === 0) return payload;
    const make = codings.length === 1 ? DECODERS[codings[0] as string] : undefined;
    if (!make) throw apiError('UNSUPPORTED_CONTENT_ENCODING');
    // A body sent chunked with no chunk is empty, whatever its coding says: a decoder given no byte calls it damaged.
    if (await endsEmpty(payload)) return payload;
    const decoded = make() as Decoded;
    decoded.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      decoded.receivedEncodedLength += chunk.length;
    });
    // A damaged body ends the decoded stream with the decoder's error, which the error handler answers as 400 (a
    // request that broke off ends it with its own error, which is not the body's fault).
    decoded.on('error', (err) => {
      if (!payload.errored) decodingErrors.add(err);
    });
    pipeline(payload, decoded, () => undefined);
    // Answered before the body was read to its end (413 as it passed the limit): decoding the rest is wasted work.
    reply.raw.once('close', () => {
      if (!decoded.readableEnded) decoded.destroy();
    });
    return decoded;
  });
}

/**
 * Whether the body ends before its first byte. Waits for its first bytes or
 * its end, and leaves what arrived to be read; a body that fails or closes
 * first is not called empty, and fails where it is read.
 */
function endsEmpty(payload: Readable): Promise<boolean> {
  // Closed already (the client went while an earlier hook waited): no event would come to settle on.
  if (payload.destroyed || payload.errored !== null) return Promise.resolve(false);
  // A request received whole with no byte waiting to be read has none: Node may have closed it already.
  if ((payload as Readable & { complete?: boolean }).complete === true) return Promise.resolve(payload.readableLength === 0);
  return new Promise((resolve) => {
    const settle = (empty: boolean): void => {
      payload.off('readable', readable).off('error', failed).off('close', failed);
      resolve(empty);
    };
    // 'readable' comes with data to read, or at the end with none.
    const readable = (): void => settle(payload.readableLength === 0);
    const failed = (): void => settle(false);
    payload.on('readable', readable).once('error', failed).once('close', failed);
  });
}

const decodingErrors = new WeakSet<object>();

/** Whether the body could not be decoded as its Content-Encoding says (zlib's and brotli's errors alike). */
export function isDecodingError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && decodingErrors.has(err);
}
