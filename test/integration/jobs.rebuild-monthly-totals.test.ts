import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rebuildMonthlyTotals } from '../../jobs/rebuild-monthly-totals.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { fixturePath, ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

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

  it('counts a key kept twice with the right figures as drift, and keeps it once after the repair', async () => {
    // A second copy of the rent row, 950.00 like the first: every read that sums the month would see 1,900.00.
    await ctx.store.write((conn) => conn.run("INSERT INTO monthly_category_totals SELECT * FROM monthly_category_totals WHERE category_l2 = 'rent'").then(() => undefined));
    const result = await runJob(rebuildMonthlyTotals, jobCtx(), 'cli');
    expect(result.status).toBe('failed');
    expect(result.results['measure-drift']).toMatchObject({ drift_rows: 1, rows_checked: 7 });
    const [drift] = JSON.parse(String(result.results['measure-drift']?.['sample'])) as { kept_total: string; fresh_total: string }[];
    expect(drift).toMatchObject({ kept_total: '1900.00', fresh_total: '950.00' });
    expect(await rows(ctx.store, "SELECT total::VARCHAR AS total FROM monthly_category_totals WHERE category_l2 = 'rent'")).toEqual([{ total: '950.00' }]);
  });
});

describe('rebuild-monthly-totals in slices of customers', () => {
  let ctx: Ctx;
  beforeEach(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: 6, months: 3, seed: 5, faults: false, endMonth: '2024-06' });
  });
  afterEach(async () => ctx.cleanup());

  const jobCtx = (settings: Record<string, string>) => ({ store: ctx.store, config: loadConfig({}, settings), logger: silentLogger });
  const KEPT_ORDER = 'SELECT customer_id, client_id, month::VARCHAR AS month FROM monthly_category_totals ORDER BY rowid';
  const ONE_SLICE = { AFFORD_JOBS_SLICE_TRANSACTIONS: '100000000' };
  // One transaction a slice: every customer is a slice of its own.
  const EACH_CUSTOMER = { AFFORD_JOBS_SLICE_TRANSACTIONS: '1' };
  const spoil = async (): Promise<void> => {
    await ctx.store.write(async (conn) => {
      await conn.run("UPDATE monthly_category_totals SET total = total + 1 WHERE customer_id = (SELECT max(customer_id) FROM transactions) AND month = '2024-06-01'");
      await conn.run("DELETE FROM monthly_category_totals WHERE customer_id = (SELECT min(customer_id) FROM transactions) AND month = '2024-05-01'");
      // Totals kept for customers that hold no transaction: one sorts before every stored id, one after.
      for (const id of ['', 'zzzz-no-such-customer']) await conn.run(`INSERT INTO monthly_category_totals SELECT * REPLACE ('${id}' AS customer_id) FROM monthly_category_totals LIMIT 1`);
    });
  };

  it('finds the drift a slice at a time that it finds in one, in totals kept for no customer too, and repairs it', async () => {
    const customers = await rows<{ n: number }>(ctx.store, 'SELECT count(DISTINCT customer_id)::INTEGER AS n FROM transactions');
    expect(customers).toEqual([{ n: 6 }]);
    await spoil();
    const whole = await runJob(rebuildMonthlyTotals, jobCtx(ONE_SLICE), 'cli');
    expect(whole.results['measure-drift']).toMatchObject({ slices: 1 });
    const drift = Number(whole.results['measure-drift']?.['drift_rows']);
    expect(drift).toBeGreaterThan(4);
    await ctx.cleanup();
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: 6, months: 3, seed: 5, faults: false, endMonth: '2024-06' });
    await spoil();
    const sliced = await runJob(rebuildMonthlyTotals, jobCtx(EACH_CUSTOMER), 'cli');
    expect(sliced.status).toBe('failed');
    expect(sliced.results['measure-drift']).toMatchObject({ drift_rows: drift, rows_checked: whole.results['measure-drift']?.['rows_checked'], slices: 6 });
    expect(sliced.results['measure-drift']?.['sample']).toBe(whole.results['measure-drift']?.['sample']);
    const sample = JSON.parse(String(sliced.results['measure-drift']?.['sample'])) as { customer_id: string; fresh_total: string | null }[];
    expect(sample.filter((d) => d.fresh_total === null).map((d) => d.customer_id)).toContain('');
    const again = await runJob(rebuildMonthlyTotals, jobCtx(EACH_CUSTOMER), 'cli');
    expect(again.results['measure-drift']).toMatchObject({ drift_rows: 0 });
    expect(await rows(ctx.store, "SELECT count(*)::INTEGER AS n FROM monthly_category_totals WHERE customer_id IN ('', 'zzzz-no-such-customer')")).toEqual([{ n: 0 }]);
  });

  it('writes the table in customer order across its slices, as in one slice', async () => {
    await runJob(rebuildMonthlyTotals, jobCtx(EACH_CUSTOMER), 'cli');
    const sliced = await rows<{ customer_id: string; client_id: string; month: string }>(ctx.store, KEPT_ORDER);
    const key = (r: { customer_id: string; client_id: string; month: string }): string => `${r.customer_id}\n${r.client_id}\n${r.month}`;
    expect(new Set(sliced.map((r) => r.customer_id)).size).toBe(6);
    expect(sliced.map(key)).toEqual(sliced.map(key).sort());
    await runJob(rebuildMonthlyTotals, jobCtx(ONE_SLICE), 'cli');
    expect(await rows(ctx.store, KEPT_ORDER)).toEqual(sliced);
  });
});

describe('rebuild-monthly-totals within a small memory limit', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: 500, months: 12, seed: 3, faults: false, endMonth: '2024-06' });
  }, 120_000);
  afterAll(async () => ctx.cleanup());

  const jobCtx = (settings: Record<string, string>) => ({ store: ctx.store, config: loadConfig({}, { AFFORD_JOBS_DB_MEMORY_LIMIT: '32MB', ...settings }), logger: silentLogger });

  it('checks and rewrites 500 customers in slices under 32MB, which the whole store in one slice does not fit', async () => {
    const [stored] = await rows<{ totals: number; transactions: number }>(
      ctx.store,
      'SELECT (SELECT count(*) FROM monthly_category_totals)::INTEGER AS totals, (SELECT count(*) FROM transactions)::INTEGER AS transactions',
    );
    expect(stored?.transactions).toBeGreaterThan(300_000);
    const whole = await runJob(rebuildMonthlyTotals, jobCtx({ AFFORD_JOBS_SLICE_TRANSACTIONS: '100000000' }), 'cli');
    expect(whole.status).toBe('failed');
    expect(whole.message).toMatch(/Out of Memory/);
    const sliced = await runJob(rebuildMonthlyTotals, jobCtx({ AFFORD_JOBS_SLICE_TRANSACTIONS: '50000' }), 'cli');
    expect(sliced.message).toBe(`no drift in ${stored?.totals} monthly total rows`);
    expect(sliced.status).toBe('succeeded');
    expect(Number(sliced.results['replace']?.['slices'])).toBeGreaterThanOrEqual(6);
    expect(await rows(ctx.store, 'SELECT count(*)::INTEGER AS n FROM monthly_category_totals')).toEqual([{ n: stored?.totals }]);
  }, 60_000);
});
