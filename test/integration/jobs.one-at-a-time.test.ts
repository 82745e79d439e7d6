import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affordabilityReports } from '../../jobs/affordability-reports.js';
import { exportParquetJob } from '../../jobs/export-parquet.js';
import { rebuildMonthlyTotals } from '../../jobs/rebuild-monthly-totals.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { loggedLines } from '../helpers/log-lines.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

describe('jobs asked for at once on one store', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: 12, months: 6, seed: 3, faults: false, endMonth: '2026-10' });
  });
  afterAll(async () => ctx.cleanup());

  it('run one after another, in the order asked, and leave the store’s settings as they were', async () => {
    const exportDir = path.join(ctx.dir, 'export');
    const jc = { store: ctx.store, config: loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_EXPORT_DIR: exportDir }), logger: silentLogger };
    const settings = async () => rows(ctx.store, "SELECT name, value FROM duckdb_settings() WHERE name IN ('threads', 'memory_limit', 'checkpoint_threshold') ORDER BY name");
    // A job leaves the store with the service's settings (the configured memory and checkpoint threshold); the
    // threads are set to one, as afford's writer has them, which a job on every core must give back.
    await runJob(rebuildMonthlyTotals, jc, 'cli');
    await ctx.store.writeUntransacted((conn) => conn.run('SET GLOBAL threads = 1'));
    const before = await settings();
    expect(before).toContainEqual({ name: 'threads', value: '1' });

    // As a command forwarded to afford serve meets the nightly batch: two exports (each replaces the same snapshot
    // file), and two jobs that each set the store's threads and memory for their length.
    const runs = await Promise.all([
      runJob(exportParquetJob, jc, 'schedule'),
      runJob(exportParquetJob, jc, 'cli'),
      runJob(rebuildMonthlyTotals, jc, 'schedule'),
      runJob(affordabilityReports, jc, 'cli'),
    ]);
    expect(runs.map((r) => [r.job, r.status, r.status === 'failed' ? r.message : ''])).toEqual([
      ['export-parquet', 'succeeded', ''], ['export-parquet', 'succeeded', ''], ['rebuild-monthly-totals', 'succeeded', ''], ['affordability-reports', 'succeeded', ''],
    ]);
    expect(existsSync(path.join(exportDir, 'afford-snapshot.duckdb'))).toBe(true);
    expect(await settings()).toEqual(before);

    // Each began once the one before had ended, in the order asked.
    const spans = await rows<{ started_at: string; finished_at: string }>(
      ctx.store,
      `SELECT started_at::VARCHAR AS started_at, finished_at::VARCHAR AS finished_at FROM job_runs WHERE run_id IN (${runs.map((r) => `'${r.runId}'`).join(', ')}) ORDER BY started_at`,
    );
    expect(spans).toHaveLength(4);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.started_at >= spans[i - 1]!.finished_at, JSON.stringify(spans)).toBe(true);
  });

  it('say a job waits only when one is still running: not for a job asked for after the one before ended', async () => {
    const { logger, lines } = loggedLines('info');
    const jc = { store: ctx.store, config: loadConfig({}, { AFFORD_DB: ctx.store.path }), logger };
    const waits = () => lines.filter((l) => l.msg === 'job waits for the job in hand to end').map((l) => l['job']);
    // One after the other, as `jobs run all` asks for them.
    await runJob(rebuildMonthlyTotals, jc, 'cli');
    await runJob(rebuildMonthlyTotals, jc, 'cli');
    expect(waits()).toEqual([]);
    // Asked for at once: the second waits.
    await Promise.all([runJob(rebuildMonthlyTotals, jc, 'cli'), runJob(affordabilityReports, jc, 'cli')]);
    expect(waits()).toEqual(['affordability-reports']);
  });
});
