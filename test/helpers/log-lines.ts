import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger.js';

/** A logger at `level` whose lines are kept, parsed, in `lines`, in the order logged. */
export function loggedLines(level: string): { logger: Logger; lines: { msg: string; [field: string]: unknown }[] } {
  const lines: { msg: string; [field: string]: unknown }[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as { msg: string });
      done();
    },
  });
  return { logger: createLogger(level, capture), lines };
}
