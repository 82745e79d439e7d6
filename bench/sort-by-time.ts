import { renameSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Sorts an NDJSON file in place by each line's `occurred_at` (stable; a line
 * without one keeps the key of the line before it): each batch then holds
 * nearly every customer's events, as a Kafka stream's transactions do. With
 * awk and sort, since a large file is larger than a JavaScript string may be.
 */
export function sortFileByTime(file: string): void {
  const sorted = `${file}.by-time`;
  const awk = `awk '{ if (match($0, /"occurred_at":"[^"]+"/)) k = substr($0, RSTART + 15, RLENGTH - 16); print k "\t" $0 }'`;
  const r = spawnSync('sh', ['-c', `${awk} "$1" | LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 -S 1G -T "$3" | cut -f2- > "$2"`, 'sh', file, sorted, path.dirname(file)], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`sorting ${file} by time failed (${r.status})`);
  renameSync(sorted, file);
}
