/**
 * File ingest throughput, as a ratio against baselines taken in the same run
 * on the same file, because these machines are noisy:
 *   - read: stream the file line by line (the floor for any ingest);
 *   - parse: read plus JSON.parse of every line;
 *   - afford: `ingestFile` into a fresh DuckDB file (validation, versions,
 *     dead letters, monthly totals).
 * Usage: node --import tsx bench/ingest-file.ts [customers] [months]
 */
import { createReadStream, mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Store } from '../src/db/store.js';
import { writeEvents } from '../src/generate/index.js';
import { ingestFile } from '../src/ingest/file-source.js';
import { buildPipeline } from '../src/app/pipeline.js';
import { createLogger } from '../src/logger.js';

const customers = Number(process.argv[2] ?? 500);
const months = Number(process.argv[3] ?? 12);
const dir = mkdtempSync(path.join(tmpdir(), 'afford-bench-'));
const file = path.join(dir, 'events.ndjson');
const logger = createLogger('silent');

async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, value };
}

async function readLines(parse: boolean): Promise<number> {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (parse) {
      try {
        JSON.parse(line);
      } catch {
        // invalid lines are part of the data set
      }
    }
    n++;
  }
  return n;
}

try {
  const out = createWriteStream(file);
  const stats = await writeEvents({ customers, months, seed: 7, faults: true, endMonth: '2024-12' }, out);
  out.end();
  await once(out, 'finish');
  const lines = stats.lines;

  const read = await timed(() => readLines(false));
  const parse = await timed(() => readLines(true));
  const store = await Store.open(path.join(dir, 'bench.duckdb'), logger);
  const peakBefore = process.memoryUsage().rss;
  let peak = peakBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const ingest = await timed(() => ingestFile(buildPipeline(store, logger), file, { batchRows: 5000 }));
  clearInterval(sampler);
  await store.close();

  const rate = (s: number) => Math.round(lines / s).toLocaleString('en-GB');
  process.stdout.write(
    [
      `file ingest, ${customers} customers x ${months} months: ${lines.toLocaleString('en-GB')} lines`,
      `  read lines          ${read.seconds.toFixed(2)} s  ${rate(read.seconds)} lines/s`,
      `  read + JSON.parse   ${parse.seconds.toFixed(2)} s  ${rate(parse.seconds)} lines/s`,
      `  afford ingest       ${ingest.seconds.toFixed(2)} s  ${rate(ingest.seconds)} events/s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`,
      `  ratio afford / read + parse: ${(parse.seconds / ingest.seconds).toFixed(3)} (1.0 would be as fast as parsing alone)`,
      `  summary: ${JSON.stringify(ingest.value)}`,
    ].join('\n') + '\n',
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
