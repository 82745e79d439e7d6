import type { Command } from 'commander';
import { ingestFile } from '../ingest/file-source.js';
import { fastValidator } from '../ingest/fast-validator.js';
import type { IngestSummary } from '../ingest/types.js';
import { cliContext, out, serviceScope, terminalProgress, withPipeline } from './context.js';
import { batchRowsOption } from './errors.js';
import { inputFile } from './input-file.js';

export function formatSummary(s: IngestSummary, seconds: number): string {
  const rate = seconds > 0 ? Math.round(s.read / seconds) : s.read;
  return [
    `read ${s.read}, inserted ${s.inserted}, updated ${s.updated}, deleted ${s.deleted}, unchanged ${s.skipped}, dead letters ${s.deadLetters}`,
    `in ${seconds.toFixed(1)} s (${rate} events/s)`,
  ].join('\n');
}

export function registerIngest(program: Command): void {
  const ingest = program.command('ingest').description('read events into the DuckDB file');
  ingest
    .command('file')
    .argument('<path>', "NDJSON file of events, or '-' for standard input")
    .description('ingest an NDJSON event file; bad lines become dead letters')
    .option('--batch <rows>', 'events per transaction (default AFFORD_INGEST_BATCH_ROWS)', batchRowsOption)
    .action(async (input: string, opts: { batch?: number }) => {
      // The fast path's thread starts, and compiles its check, while the store opens.
      fastValidator.warm();
      const ctx = cliContext();
      const batchRows = opts.batch ?? ctx.config.AFFORD_INGEST_BATCH_ROWS;
      const bytes = input === '-' ? 0 : inputFile('afford ingest file', input).size;
      const progress = terminalProgress('ingest');
      const started = Date.now();
      // Deletions and payments in the file enqueue their webhooks; 'afford serve' sends them.
      const summary = await withPipeline(ctx, (pipeline) => {
        return ingestFile(pipeline, input, {
          batchRows,
          // Inside the service: stops when the caller goes away (Ctrl-C).
          signal: serviceScope.getStore()?.signal,
          onProgress: (s) => progress(s.read, 0, `events, ${s.deadLetters} dead letters${bytes ? `, ${(bytes / 1e6).toFixed(0)} MB file` : ''}`),
        });
      });
      progress.end();
      out(`${formatSummary(summary, (Date.now() - started) / 1000)}\n`);
    });
}
