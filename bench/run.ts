/** Runs every benchmark in turn; each prints its own ratios against same-run baselines. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
for (const bench of ['ingest-file.ts', 'kafka-ingest.ts', 'kafka-freshness.ts']) {
  process.stdout.write(`\n== ${bench}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench)], { stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = 1;
}
