import { readdirSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { SNAPSHOT_FILE, exportParquetJob } from '../../jobs/export-parquet.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

const CUSTOMERS = 12;
// The generator's last month is June 2024; the job runs "on" 2024-07-15.
const NOW = new Date('2024-07-15T02:00:00Z');
const STORED = `SELECT client_id, customer_id, range_months, month_from::VARCHAR AS month_from, month_to::VARCHAR AS month_to, report::VARCHAR AS report
  FROM affordability_reports ORDER BY ALL`;

describe('the nightly jobs work in bounded slices', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: CUSTOMERS, months: 12, seed: 11, faults: true, endMonth: '2024-06' });
  });
  afterAll(async () => ctx.cleanup());

  const jobCtx = (settings: Record<string, string>, progress?: (done: number, total: number) => void) => ({
    store: ctx.store,
    config: loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_EXPORT_DIR: path.join(ctx.dir, 'export'), ...settings }),
    logger: silentLogger,
    ...(progress ? { progress } : {}),
  });

  it('stores the same reports when AFFORD_JOBS_SLICE_CUSTOMERS is smaller than the number of customers as in one slice', async () => {
    const whole = await runJob(createAffordabilityReportsJob({ now: () => NOW }), jobCtx({ AFFORD_JOBS_SLICE_CUSTOMERS: String(CUSTOMERS) }), 'cli');
    expect(whole.status).toBe('succeeded');
    const inOne = await rows<Record<string, unknown>>(ctx.store, STORED);
    expect(inOne).toHaveLength(CUSTOMERS * 3);

    const progress: Array<[number, number]> = [];
    const sliced = await runJob(createAffordabilityReportsJob({ now: () => NOW }), jobCtx({ AFFORD_JOBS_SLICE_CUSTOMERS: '5' }, (d, t) => progress.push([d, t])), 'cli');
    expect(sliced.status).toBe('succeeded');
    // Slices of 5, 5 and 2 customers, each finished before the next.
    expect(progress).toEqual([[5, CUSTOMERS], [10, CUSTOMERS], [CUSTOMERS, CUSTOMERS]]);
    expect(await rows<Record<string, unknown>>(ctx.store, STORED)).toEqual(inOne);
  });

  it('exports each table one month at a time, as one hive partition per month holding every row of that month', async () => {
    const run = await runJob(exportParquetJob, jobCtx({}), 'cli');
    expect(run.status).toBe('succeeded');
    const months = await rows<{ month: string }>(ctx.store, `SELECT DISTINCT strftime(month, '%Y-%m') AS month FROM transactions ORDER BY 1`);
    const dir = path.join(ctx.dir, 'export', 'transactions');
    expect(readdirSync(dir).sort()).toEqual(months.map((m) => `month=${m.month}`));
    const glob = (table: string) => path.join(ctx.dir, 'export', table, '*', '*.parquet');
    const fromParquet = await rows<{ month: string; n: number; total: string }>(ctx.store, `
      SELECT month, count(*)::INTEGER AS n, sum(amount)::VARCHAR AS total
      FROM read_parquet('${glob('transactions')}', hive_partitioning = true) GROUP BY month ORDER BY month`);
    const fromTable = await rows<{ month: string; n: number; total: string }>(ctx.store, `
      SELECT strftime(month, '%Y-%m') AS month, count(*)::INTEGER AS n, sum(amount)::VARCHAR AS total
      FROM transactions GROUP BY ALL ORDER BY month`);
    expect(fromParquet).toEqual(fromTable);
    const reports = await rows<{ n: number }>(ctx.store, `SELECT count(*)::INTEGER AS n FROM read_parquet('${glob('affordability_reports')}', hive_partitioning = true)`);
    expect(reports).toEqual([{ n: CUSTOMERS * 3 }]);
    // The export reads without keeping insertion order on its own connection only, and puts it back.
    const order = await rows<{ kept: boolean }>(ctx.store, `SELECT current_setting('preserve_insertion_order') AS kept`);
    expect(order).toEqual([{ kept: true }]);
  });
  it('exports and snapshots the reports and insights a slice of AFFORD_JOBS_SLICE_CUSTOMERS customers at a time, every row as stored', async () => {
    const run = await runJob(exportParquetJob, jobCtx({ AFFORD_JOBS_SLICE_CUSTOMERS: '5' }), 'cli');
    expect(run.status).toBe('succeeded');
    const exportDir = path.join(ctx.dir, 'export');
    const [month] = await rows<{ month: string }>(ctx.store, `SELECT DISTINCT strftime(month_to, '%Y-%m') AS month FROM affordability_reports`);
    // 12 customers in slices of 5, 5 and 2: one file each, in customer order.
    for (const table of ['affordability_reports', 'affordability_insights']) {
      expect(readdirSync(path.join(exportDir, table, `month=${month?.month}`)).sort()).toEqual(['data_0.parquet', 'data_1.parquet', 'data_2.parquet']);
    }
    const perFile = await rows<{ file: string; customers: number }>(ctx.store, `
      SELECT parse_filename(filename) AS file, count(DISTINCT customer_id)::INTEGER AS customers
      FROM read_parquet('${path.join(exportDir, 'affordability_reports', '*', '*.parquet')}', filename = true) GROUP BY ALL ORDER BY file`);
    expect(perFile.map((f) => f.customers)).toEqual([5, 5, 2]);
    const columns = `client_id, customer_id, range_months, month_from::VARCHAR AS month_from, month_to::VARCHAR AS month_to, currency, generated_at::VARCHAR AS generated_at, generator_version, report::VARCHAR AS report`;
    const stored = await rows<Record<string, unknown>>(ctx.store, `SELECT ${columns} FROM affordability_reports ORDER BY ALL`);
    expect(stored).toHaveLength(CUSTOMERS * 3);
    const exported = await rows<Record<string, unknown>>(ctx.store, `SELECT ${columns} FROM read_parquet('${path.join(exportDir, 'affordability_reports', '*', '*.parquet')}', hive_partitioning = false) ORDER BY ALL`);
    expect(exported).toEqual(stored);
    const insights = `SELECT * EXCLUDE (month_from, month_to) FROM %s ORDER BY ALL`;
    const storedInsights = JSON.stringify(await rows(ctx.store, insights.replace('%s', 'affordability_insights')));
    const exportedInsights = JSON.stringify(await rows(ctx.store, insights.replace('%s', `read_parquet('${path.join(exportDir, 'affordability_insights', '*', '*.parquet')}', hive_partitioning = false)`)));
    expect(exportedInsights).toEqual(storedInsights);

    const snapshot = await DuckDBInstance.create(path.join(exportDir, SNAPSHOT_FILE), { access_mode: 'READ_ONLY' });
    try {
      const conn = await snapshot.connect();
      const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
      expect(await read(`SELECT ${columns} FROM affordability_reports ORDER BY ALL`)).toEqual(stored);
      expect(JSON.stringify(await read(insights.replace('%s', 'affordability_insights')))).toEqual(storedInsights);
      conn.closeSync();
    } finally {
      snapshot.closeSync();
    }
  });
});
