import type { Command } from 'commander';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { JOBS } from '../../jobs/registry.js';
import { runJobIf } from '../../jobs/runner.js';
import { startService, stopOnSignals } from '../app/service.js';
import { startAdminServer, type BuildProgram } from './admin.js';
import { writeEventsFile } from '../generate/index.js';
import { ingestFile } from '../ingest/file-source.js';
import { cliContext, terminalProgress } from './context.js';
import { positiveInt } from './errors.js';
import { formatSummary } from './ingest.js';
import { demoCurlLines, writeSamplePdf } from './demo-api.js';

export function registerDemo(program: Command, buildProgram: BuildProgram): void {
  program
    .command('demo')
    .description('generate sample data, ingest it, run every job, then serve')
    .option('--customers <n>', 'number of customers', positiveInt, 300)
    .option('--months <n>', 'months of history', positiveInt, 12)
    .action(async (opts: { customers: number; months: number }) => {
      const ctx = cliContext();
      const dataDir = path.dirname(path.resolve(ctx.config.AFFORD_DB));
      mkdirSync(dataDir, { recursive: true });
      const eventsFile = path.join(dataDir, 'demo-events.ndjson');

      const genProgress = terminalProgress('generate');
      const stats = await writeEventsFile({ customers: opts.customers, months: opts.months, seed: 42, faults: true }, eventsFile, genProgress);
      genProgress.end();
      process.stdout.write(`1/4 generated ${stats.lines} events for ${opts.customers} customers into ${eventsFile}\n`);

      // Not ready (/readyz 503) until the data is in and the jobs have run.
      const service = await startService(ctx.config, ctx.logger, { startUpWork: true });
      const admin = startAdminServer({ store: service.store, pipeline: service.pipeline, config: ctx.config, logger: ctx.logger }, buildProgram);
      // Ctrl-C while the data goes in or the jobs run stops them at their next safe point (the ingest at its next
      // batch, a job between its chunks), and the store closes after them, not under them.
      const stopping = new AbortController();
      let startUp: Promise<unknown> = Promise.resolve();
      stopOnSignals({
        ...service,
        stop: async () => {
          stopping.abort('the demo is stopping');
          await startUp.catch(() => undefined);
          await admin.close();
          await service.stop();
        },
      }, ctx.logger);
      startUp = (async () => {
        const started = Date.now();
        const ingestProgress = terminalProgress('ingest');
        const summary = await ingestFile(service.pipeline, eventsFile, {
          batchRows: ctx.config.AFFORD_INGEST_BATCH_ROWS,
          signal: stopping.signal,
          onProgress: (s) => ingestProgress(s.read, stats.lines),
        });
        ingestProgress.end();
        process.stdout.write(`2/4 ingested into ${ctx.config.AFFORD_DB}: ${formatSummary(summary, (Date.now() - started) / 1000)}\n`);
        for (const job of JOBS) {
          const jobCtx = { store: service.store, config: ctx.config, logger: ctx.logger, signal: stopping.signal };
          const result = await runJobIf(() => !stopping.signal.aborted, job, jobCtx, 'cli');
          if (result) process.stdout.write(`3/4 job ${job.name}: ${result.status}: ${result.message}\n`);
        }
        if (stopping.signal.aborted) return;
        service.markReady();
        process.stdout.write(`4/4 serving on ${service.address} (try ${service.address}/healthz); Ctrl-C stops\n`);
        process.stdout.write(`try the API:\n${(await demoCurlLines(service.store, service.address)).map((l) => `  ${l}`).join('\n')}\n`);
        const sample = await writeSamplePdf(service.store, path.join(dataDir, 'sample-affordability-report.pdf'));
        process.stdout.write(sample ? `sample affordability report (PDF, ${sample.customerId}, last 12 complete months): ${sample.file}\n` : 'no customer for a sample PDF\n');
      })();
      await startUp;
    });
}
