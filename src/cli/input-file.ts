import { statSync, type Stats } from 'node:fs';
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
