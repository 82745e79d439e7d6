import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rebuildMonthlyTotals } from '../../jobs/rebuild-monthly-totals.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { fixturePath, rows, silentLogger, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

describe('rebuild-monthly-totals', () => {
  let ctx: Ctx;
  beforeEach(async () => {
    ctx = await tempStore();
    await ingestFile(ctx.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 3 });
  });
  afterEach(async () => ctx.cleanup());

  const jobCtx = () => ({ store: ctx.store, config: loadConfig({}), logger: silentLogger });

  it('finds no drift after ingest and records the run', async () => {
    const result = await runJob(rebuildMonthlyTotals, jobCtx(), 'cli');
    expect(result.status).toBe('succeeded');
    expect(result.results['measure-drift']).toMatchObject({ drift_rows: 0, rows_checked: 7 });
    const runs = await rows<{ job_name: string; status: string; trigger: string }>(ctx.store, 'SELECT job_name, status, trigger FROM job_runs');
    expect(runs).toEqual([{ job_name: 'rebuild-monthly-totals', status: 'succeeded', trigger: 'cli' }]);
  });

  it('reports drift when the kept table is wrong, and repairs it', async () => {
    await ctx.store.write((conn) => conn.run("UPDATE monthly_category_totals SET total = total + 1 WHERE category_l2 = 'rent'").then(() => undefined));
    await ctx.store.write((conn) => conn.run("DELETE FROM monthly_category_totals WHERE category_l2 = 'salary'").then(() => undefined));
    const result = await runJob(rebuildMonthlyTotals, jobCtx(), 'cli');
    expect(result.status).toBe('failed');
    expect(result.results['measure-drift']).toMatchObject({ drift_rows: 3 });
    expect(result.message).toMatch(/drift in 3 of 7/);
    const again = await runJob(rebuildMonthlyTotals, jobCtx(), 'cli');
    expect(again.results['measure-drift']).toMatchObject({ drift_rows: 0 });
    const [rent] = await rows<{ total: string }>(ctx.store, "SELECT total FROM monthly_category_totals WHERE category_l2 = 'rent'");
    expect(rent?.total).toBe('950.00');
  });
});
