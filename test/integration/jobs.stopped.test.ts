import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { exportParquetJob } from '../../jobs/export-parquet.js';
import type { Job } from '../../jobs/job.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

const CUSTOMERS = 9;
const NOW = new Date('2024-07-15T02:00:00Z');

describe('a job whose caller went away', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: CUSTOMERS, months: 6, seed: 3, faults: false, endMonth: '2024-06' });
  });
  afterAll(async () => ctx.cleanup());

  const jobCtx = (signal: AbortSignal, progress?: (done: number, total: number) => void) => ({
    store: ctx.store,
    config: loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_EXPORT_DIR: path.join(ctx.dir, 'export'), AFFORD_JOBS_SLICE_CUSTOMERS: '2' }),
    logger: silentLogger,
    signal,
    ...(progress ? { progress } : {}),
  });
  const lastRun = async (job: string) =>
    (await rows<{ status: string; message: string }>(ctx.store, `
      SELECT status, detail::JSON->>'message' AS message FROM job_runs WHERE job_name = '${job}' ORDER BY run_id DESC LIMIT 1`))[0];

  it('stops between steps: the steps after the one in hand do not run, and the run is recorded as failed, saying why', async () => {
    const stop = new AbortController();
    const ran: string[] = [];
    const job: Job = {
      name: 'three-steps',
      description: 'three steps, the first of which is when the caller goes',
      schedule: 'nightly',
      steps: ['first', 'second', 'third'].map((name) => ({
        name,
        run: async () => {
          ran.push(name);
          if (name === 'first') stop.abort();
          return {};
        },
      })),
    };
    const result = await runJob(job, jobCtx(stop.signal), 'cli');
    expect(ran).toEqual(['first']);
    expect(result.status).toBe('failed');
    expect(result.message).toBe("stopped before its step 'second': whoever asked for the run went away (Ctrl-C)");
    expect(await lastRun('three-steps')).toEqual({ status: 'failed', message: result.message });
  });

  it('stops the reports between chunks of customers, keeping the chunks stored', async () => {
    const stop = new AbortController();
    // The caller goes while the second chunk of two customers is being stored.
    const result = await runJob(createAffordabilityReportsJob({ now: () => NOW }), jobCtx(stop.signal, (done) => done >= 4 && stop.abort()), 'cli');
    expect(result.status).toBe('failed');
    expect(result.message).toBe(`stopped after 4 of ${CUSTOMERS} customers: whoever asked for the run went away (Ctrl-C)`);
    const stored = await rows<{ customers: number; reports: number }>(ctx.store,
      'SELECT count(DISTINCT customer_id)::INTEGER AS customers, count(*)::INTEGER AS reports FROM affordability_reports');
    expect(stored).toEqual([{ customers: 4, reports: 12 }]);
    expect(await lastRun('affordability-reports')).toEqual({ status: 'failed', message: result.message });

    // Run again to the end, the reports of every customer are stored.
    const again = await runJob(createAffordabilityReportsJob({ now: () => NOW }), jobCtx(new AbortController().signal), 'cli');
    expect(again.status).toBe('succeeded');
    expect(await rows(ctx.store, 'SELECT count(DISTINCT customer_id)::INTEGER AS customers FROM affordability_reports')).toEqual([{ customers: CUSTOMERS }]);
  });

  it('stops the export between its files, leaving the export in place as it was and no staging folder', async () => {
    const exportDir = path.join(ctx.dir, 'export');
    const first = await runJob(exportParquetJob, jobCtx(new AbortController().signal), 'cli');
    expect(first.status).toBe('succeeded');
    const filesOf = () => readdirSync(exportDir, { recursive: true }).map(String).sort();
    const before = filesOf();
    expect(before.filter((f) => f.endsWith('.parquet')).length).toBeGreaterThan(3);

    const stop = new AbortController();
    const result = await runJob(exportParquetJob, jobCtx(stop.signal, (done) => done === 3 && stop.abort()), 'cli');
    expect(result.status).toBe('failed');
    expect(result.message).toMatch(/^stopped after 3 of the export's \d+ files: whoever asked for the run went away \(Ctrl-C\)$/);
    expect(filesOf()).toEqual(before);
  });
});
