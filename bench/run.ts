/**
 * Runs every benchmark in turn; each prints its own ratios against same-run
 * baselines. Arguments go to the file ingest bench, for example
 * `npm run bench -- --growth-customers 4000` for the full-size growth run;
 * those that start with --reads- go to the reads bench without the prefix,
 * for example `npm run bench -- --reads-transactions 10000000`.
 * `--memory-customers 2000,4000` gives the memory bench its full size; the
 * memory bench runs twice, on files in customer order and in time order.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const ingestArgs: string[] = [];
const readsArgs: string[] = [];
const argv = process.argv.slice(2);
const memoryAt = argv.indexOf('--memory-customers');
const memoryArgs = memoryAt >= 0 ? ['--customers', argv.splice(memoryAt, 2)[1] ?? ''] : [];
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i] ?? '';
  if (!arg.startsWith('--reads-')) {
    ingestArgs.push(arg);
    continue;
  }
  readsArgs.push(arg.replace('--reads-', '--'));
  const value = argv[i + 1];
  if (value !== undefined && !value.startsWith('--')) {
    readsArgs.push(value);
    i += 1;
  }
}
const runs: [string, string[]][] = [
  ['ingest-file.ts', ingestArgs],
  ['memory.ts', memoryArgs],
  // Memory again with each file in time order, as a Kafka stream brings events: every batch holds nearly every customer.
  ['memory.ts', [...memoryArgs, '--order', 'time']],
  ['kafka-ingest.ts', ['--rounds', '8']],
  ['kafka-freshness.ts', []],
  ['report-pdf.ts', []],
  ['reads.ts', ['--seconds', '5', '--sample', '500', '--cold', '200', ...readsArgs]],
  ['shards.ts', []],
];
for (const [bench, args] of runs) {
  process.stdout.write(`\n== ${bench} ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench), ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = 1;
}
