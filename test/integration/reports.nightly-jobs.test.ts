import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob, reportPdfPath } from '../../jobs/affordability-reports.js';
import { exportParquetJob, SNAPSHOT_FILE } from '../../jobs/export-parquet.js';
import type { JobContext } from '../../jobs/job.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { queryRows } from '../../src/db/rows.js';
import type { AffordabilityReport } from '../../src/reports/report-model.js';
import { buildReport } from '../../src/reports/report-service.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

const CUSTOMERS = 30;
// The job runs "on" 2024-07-15: its ranges end with June 2024, the generator's last month.
const NOW = new Date('2024-07-15T02:00:00Z');
const RANGES = { 3: { from: '2024-04', to: '2024-06' }, 6: { from: '2024-01', to: '2024-06' }, 12: { from: '2023-07', to: '2024-06' } };
const BROKEN = 'cust-000007';

interface StoredRow {
  client_id: string;
  customer_id: string;
  range_months: number;
  month_from: string;
  month_to: string;
  report: string;
}

describe('the nightly affordability-reports and export-parquet jobs', () => {
  let ctx: Ctx;
  let jobCtx: JobContext;
  const progress: Array<[number, number]> = [];
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: CUSTOMERS, months: 12, seed: 7, faults: false, endMonth: '2024-06' });
    const config = loadConfig({}, {
      AFFORD_DB: ctx.store.path,
      AFFORD_REPORTS_DIR: path.join(ctx.dir, 'pdfs'),
      AFFORD_EXPORT_DIR: path.join(ctx.dir, 'export'),
    });
    jobCtx = { store: ctx.store, config, logger: silentLogger, progress: (done, total) => progress.push([done, total]) };
  });
  afterAll(async () => ctx.cleanup());

  it('carries on past a customer whose report fails, counting it, and stores one report per customer and range', async () => {
    const job = createAffordabilityReportsJob({
      now: () => NOW,
      chunkSize: 8, // several chunks, the broken customer in the first
      beforeCustomer: (id) => {
        if (id === BROKEN) throw new Error('injected failure');
      },
    });
    const run = await runJob(job, jobCtx, 'cli');
    const result = run.results['reports'] ?? {};
    expect(result).toMatchObject({
      customers: CUSTOMERS, succeeded: CUSTOMERS - 1, failed: 1, failed_customers: [BROKEN],
      reports_stored: (CUSTOMERS - 1) * 3, pdfs_written: CUSTOMERS - 1, pdfs_failed: 0,
    });
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/1 customers failed/);
    expect(progress.at(-1)).toEqual([CUSTOMERS, CUSTOMERS]);
    expect(progress).toHaveLength(Math.ceil(CUSTOMERS / 8));

    const counts = await rows<{ customer_id: string; n: number; ranges: string }>(ctx.store, `
      SELECT customer_id, count(*)::INTEGER AS n, string_agg(range_months::VARCHAR, ',' ORDER BY range_months) AS ranges
      FROM affordability_reports GROUP BY customer_id ORDER BY customer_id`);
    expect(counts).toHaveLength(CUSTOMERS - 1);
    expect(counts.map((c) => c.customer_id)).not.toContain(BROKEN);
    for (const c of counts) expect(c).toMatchObject({ n: 3, ranges: '3,6,12' });

    const recorded = await rows<{ status: string; detail: string }>(ctx.store,
      `SELECT status, detail::VARCHAR AS detail FROM job_runs WHERE job_name = 'affordability-reports' ORDER BY run_id`);
    expect(recorded.at(-1)?.status).toBe('failed');
    expect(JSON.parse(recorded.at(-1)!.detail).results.reports.failed_customers).toEqual([BROKEN]);

    // One folder per client under each range.
    const pdfs = readdirSync(path.join(ctx.dir, 'pdfs', '2023-07_2024-06'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.pdf'))
      .map((f) => path.basename(f));
    expect(pdfs).toHaveLength(CUSTOMERS - 1);
    expect(pdfs).not.toContain(`${BROKEN}.pdf`);
  });

  it('stores, for each range, the report that the API would give for the same customer', async () => {
    const stored = await rows<StoredRow>(ctx.store, `
      SELECT client_id, customer_id, range_months, strftime(month_from, '%Y-%m') AS month_from, strftime(month_to, '%Y-%m') AS month_to,
             report::VARCHAR AS report
      FROM affordability_reports WHERE customer_id IN ('cust-000001', 'cust-000002', 'cust-000023') ORDER BY customer_id, range_months`);
    expect(stored).toHaveLength(9);
    for (const row of stored) {
      const range = RANGES[row.range_months as 3 | 6 | 12];
      expect({ from: row.month_from, to: row.month_to }).toEqual(range);
      const fromJob = JSON.parse(row.report) as AffordabilityReport;
      const single = await buildReport(ctx.store, { clientId: row.client_id, customerId: row.customer_id, range, currency: 'GBP' }, new Date(fromJob.metadata.generated_at));
      expect(fromJob).toEqual(single);
      expect(fromJob.metadata.generated_at).toBe(NOW.toISOString());
    }
    const someIncome = stored.some((r) => (JSON.parse(r.report) as AffordabilityReport).data.assessment.income.total.overall_total.value !== '0.00');
    expect(someIncome).toBe(true);
    expect(existsSync(reportPdfPath(path.join(ctx.dir, 'pdfs'), JSON.parse(stored[2]!.report) as AffordabilityReport))).toBe(true);
  });

  it('replaces a range\'s reports when run again, succeeds when no customer fails, and drops PDFs of deleted customers', async () => {
    const older = path.join(ctx.dir, 'pdfs', '2023-06_2024-05');
    mkdirSync(older, { recursive: true });
    writeFileSync(path.join(older, 'cust-gone%2F1.pdf'), 'a deleted customer\'s report');
    writeFileSync(path.join(older, 'cust-000001.pdf'), 'a customer\'s older report');
    writeFileSync(path.join(older, 'README.txt'), 'not ours');
    const run = await runJob(createAffordabilityReportsJob({ now: () => NOW }), jobCtx, 'cli');
    expect(run.status).toBe('succeeded');
    expect(run.results['reports']).toMatchObject({ customers: CUSTOMERS, failed: 0, reports_stored: CUSTOMERS * 3, pdfs_of_deleted_customers_removed: 1 });
    expect(readdirSync(older).sort()).toEqual(['README.txt', 'cust-000001.pdf']);
    expect(await rows(ctx.store, 'SELECT count(*)::INTEGER AS n FROM affordability_reports')).toEqual([{ n: CUSTOMERS * 3 }]);
  });

  it('exports the tables as Parquet by month, queryable with DuckDB, and a snapshot of the database', async () => {
    const run = await runJob(exportParquetJob, jobCtx, 'cli');
    expect(run.status).toBe('succeeded');
    const exportDir = path.join(ctx.dir, 'export');
    expect(readdirSync(path.join(exportDir, 'transactions')).filter((d) => d.startsWith('month=')).sort().slice(0, 2))
      .toEqual(['month=2023-07', 'month=2023-08']);
    const [live] = await rows<Record<string, number>>(ctx.store, `SELECT
      (SELECT count(*) FROM transactions)::INTEGER AS transactions,
      (SELECT sum(total)::VARCHAR FROM monthly_category_totals) AS totals`);

    const reader = await (await DuckDBInstance.create(':memory:')).connect();
    const glob = (t: string) => path.join(exportDir, t, '*', '*.parquet');
    const [exported] = await rowsAs<Record<string, unknown>>(reader, `SELECT
      (SELECT count(*) FROM read_parquet($tx, hive_partitioning = true))::INTEGER AS transactions,
      (SELECT sum(total)::VARCHAR FROM read_parquet($mt, hive_partitioning = true)) AS totals`,
      { tx: glob('transactions'), mt: glob('monthly_category_totals') });
    expect(exported).toEqual(live);
    // The query the README gives: each customer's latest 12-month income, from the export.
    const latest = await rowsAs<{ customer_id: string; month: string; income: string }>(reader, `
      SELECT customer_id, month, report->>'$.data.assessment.income.total.overall_total.value' AS income
      FROM read_parquet($reports, hive_partitioning = true)
      WHERE range_months = 12
      QUALIFY row_number() OVER (PARTITION BY customer_id ORDER BY month_to DESC, generated_at DESC) = 1
      ORDER BY customer_id`, { reports: glob('affordability_reports') });
    expect(latest).toHaveLength(CUSTOMERS);
    expect(latest[0]).toMatchObject({ customer_id: 'cust-000001', month: '2024-06' });
    expect(latest[0]?.income).toMatch(/^\d+\.\d{2}$/);
    reader.closeSync();

    const snapshot = await (await DuckDBInstance.create(path.join(exportDir, SNAPSHOT_FILE), { access_mode: 'READ_ONLY' })).connect();
    expect(await queryRows(snapshot, 'SELECT count(*)::INTEGER AS n FROM affordability_reports')).toEqual([{ n: CUSTOMERS * 3 }]);
    snapshot.closeSync();
  });
});
