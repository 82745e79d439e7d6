import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { exportParquetJob } from '../../jobs/export-parquet.js';
import type { JobContext } from '../../jobs/job.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { buildInsights } from '../../src/reports/insights-service.js';
import { fixturePath, rows, silentLogger, tempStore } from '../helpers/store.js';

/**
 * The nightly reports carry their insights, and are stored with the
 * insights' main figures beside them in affordability_insights, which the
 * Parquet export carries. The hand-computed customer's last complete months are January to
 * March 2024 when the batch runs on 15 April.
 */

type Ctx = Awaited<ReturnType<typeof tempStore>>;
const NOW = new Date('2024-04-15T02:00:00Z');

interface InsightRow {
  customer_id: string;
  range_months: number;
  flags: string[];
  disposable_income: string;
  deficit: boolean;
  deficit_months: string[];
  verified_income_monthly: string;
  fixed_monthly: string;
  risk_signals: string;
}

describe('the nightly insights', () => {
  let ctx: Ctx;
  let jobCtx: JobContext;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestFile(ctx.pipeline, fixturePath('insights-hand-computed.ndjson'), { batchRows: 1000 });
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_EXPORT_DIR: path.join(ctx.dir, 'export') });
    jobCtx = { store: ctx.store, config, logger: silentLogger };
  });
  afterAll(async () => ctx.cleanup());

  it('stores each report\'s insights in it and beside it, with its flags, disposable income, verified income and commitments', async () => {
    const run = await runJob(createAffordabilityReportsJob({ now: () => NOW }), jobCtx, 'cli');
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const stored = await rows<InsightRow>(ctx.store, `SELECT customer_id, range_months, flags, disposable_income::VARCHAR AS disposable_income, deficit,
        deficit_months, verified_income_monthly::VARCHAR AS verified_income_monthly, fixed_monthly::VARCHAR AS fixed_monthly,
        risk_signals::VARCHAR AS risk_signals FROM affordability_insights ORDER BY range_months`);
    expect(stored.map((r) => r.range_months)).toEqual([3, 6, 12]);
    const three = stored[0];
    expect(three).toMatchObject({
      customer_id: 'cust-ins-1',
      flags: ['gambling_share_of_income', 'high_cost_credit', 'returned_direct_debits', 'days_in_overdraft', 'new_borrowing'],
      disposable_income: '1027.53',
      deficit: false,
      deficit_months: ['2024-03'],
      verified_income_monthly: '2733.33',
      fixed_monthly: '1530.99',
    });
    // What the job stored is what the API computes for the same range, in the report and beside it.
    const live = await buildInsights(ctx.store, { clientId: 'client-i', customerId: 'cust-ins-1', range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' });
    expect(JSON.parse(three?.risk_signals ?? '[]')).toEqual(live?.data.risk_signals);
    const [report] = await rows<{ insights: string }>(ctx.store, "SELECT json_extract(report, '$.data.insights')::VARCHAR AS insights FROM affordability_reports WHERE range_months = 3");
    expect(JSON.parse(report?.insights ?? '{}')).toEqual(live?.data);
    expect(await rows(ctx.store, "SELECT count(*)::INTEGER AS n FROM affordability_insights WHERE customer_id = 'cust-ins-1'")).toEqual([{ n: 3 }]);
  });

  it('exports the insights as Parquet beside the reports', async () => {
    const run = await runJob(exportParquetJob, jobCtx, 'cli');
    expect(run.results['parquet']?.['rows']).toMatchObject({ affordability_reports: 3, affordability_insights: 3 });
    const glob = path.join(jobCtx.config.AFFORD_EXPORT_DIR, 'affordability_insights', '*', '*.parquet');
    const fromParquet = await rows<{ month: string; n: number; disposable: string }>(ctx.store,
      `SELECT month, count(*)::INTEGER AS n, min(disposable_income)::VARCHAR AS disposable FROM read_parquet('${glob}', hive_partitioning = true) GROUP BY month`);
    expect(fromParquet).toEqual([{ month: '2024-03', n: 3, disposable: '1027.53' }]);
  });
});
