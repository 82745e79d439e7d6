import { createReadStream, statSync, type Stats } from 'node:fs';
import { affordError } from '../domain/errors.js';

/** An input file, checked before anything is opened or connected: a wrong path is a one-line mistake. */
export function inputFile(command: string, file: string): Stats {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw affordError('CLI_FAILED', `${command}: cannot read ${file}: ${reason}`);
  }
  if (stats.isDirectory()) throw affordError('CLI_FAILED', `${command}: ${file} is a folder, not an NDJSON file`);
  // A device (/dev/urandom, /dev/zero) never ends: a file, a pipe or a socket does, and /dev/null is empty.
  if ((stats.isCharacterDevice() || stats.isBlockDevice()) && file !== '/dev/null') throw affordError('CLI_FAILED', `${command}: ${file} is a device, not a file`);
  return stats;
}

/**
 * The bytes of `file`, at most `max` of them: more (a file too large, or a
 * device or pipe that never ends, such as /dev/zero) is an Error, read no
 * further; so is a file that cannot be read.
 */
export async function boundedFileBytes(file: string, max: number): Promise<Buffer | Error> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of createReadStream(file)) {
      size += (chunk as Buffer).length;
      if (size > max) return new Error(`it is larger than ${max / 1024 / 1024} MiB`);
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    return err as Error;
  }
  return Buffer.concat(chunks);
}
