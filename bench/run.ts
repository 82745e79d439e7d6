/**
 * Runs every benchmark in turn; each prints its own ratios against same-run
 * baselines. Arguments go to the file ingest bench, for example
 * `npm run bench -- --growth-customers 4000` for the full-size growth run;
 * `--memory-customers 2000,4000` gives the memory bench its full size.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const argv = process.argv.slice(2);
const memoryAt = argv.indexOf('--memory-customers');
const memoryArgs = memoryAt >= 0 ? ['--customers', argv.splice(memoryAt, 2)[1] ?? ''] : [];
for (const bench of ['ingest-file.ts', 'memory.ts', 'kafka-ingest.ts', 'kafka-freshness.ts']) {
  process.stdout.write(`\n== ${bench}\n`);
  const args = bench === 'ingest-file.ts' ? argv : bench === 'memory.ts' ? memoryArgs : [];
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench), ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = 1;
}
