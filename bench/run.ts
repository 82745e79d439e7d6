/**
 * Runs every benchmark in turn; each prints its own ratios against same-run
 * baselines. Arguments go to the file ingest bench, for example
 * `npm run bench -- --growth-customers 4000` for the full-size growth run.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
for (const bench of ['ingest-file.ts', 'kafka-ingest.ts', 'kafka-freshness.ts', 'report-pdf.ts', 'shards.ts']) {
  process.stdout.write(`\n== ${bench}\n`);
  const args = bench === 'ingest-file.ts' ? process.argv.slice(2) : [];
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench), ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = 1;
}
