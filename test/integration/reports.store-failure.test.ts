import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { salaryLine } from '../helpers/overflow.js';
import { rows, silentLogger, tempStore } from '../helpers/store.js';

describe('a customer whose reports the store cannot take', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('fails alone: the other customers of the chunk, and of the chunks after it, are stored', async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    let n = 0;
    const lines = ['cust-1', 'cust-2', 'cust-3', 'cust-4'].flatMap((customer) =>
      ['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06'].map((month) => ({ raw: salaryLine(++n, customer, month, '100.00'), ref: { source: 'file' as const, sourceRef: 'salaries', lineNumber: n } })));
    expect((await ctx.pipeline.ingest(lines)).deadLetters).toEqual([]);
    // As data written before amounts were bounded can be: each month holds, but six of them sum past what an
    // insight figure's DECIMAL(18,2) holds, and storing cust-2's reports fails.
    await ctx.store.write(async (conn) => {
      await conn.run("UPDATE transactions SET amount = 6000000000000000.00 WHERE customer_id = 'cust-2'");
      await conn.run("UPDATE monthly_category_totals SET total = 6000000000000000.00 WHERE customer_id = 'cust-2'");
    });
    const reportsDir = mkdtempSync(path.join(tmpdir(), 'afford-store-failure-pdfs-'));
    cleanups.push(async () => rmSync(reportsDir, { recursive: true, force: true }));
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_REPORTS_DIR: reportsDir });
    // Chunks of two: cust-2 shares the first with cust-1; cust-3 and cust-4 come after.
    const job = createAffordabilityReportsJob({ now: () => new Date('2024-07-15T02:00:00Z'), chunkSize: 2 });
    const run = await runJob(job, { store: ctx.store, config, logger: silentLogger }, 'cli');

    expect(run.status).toBe('failed');
    expect(run.results['reports']).toMatchObject({ customers: 4, succeeded: 3, failed: 1, reports_stored: 9, pdfs_written: 3 });
    expect(await rows(ctx.store, 'SELECT DISTINCT customer_id FROM affordability_reports ORDER BY 1')).toEqual([
      { customer_id: 'cust-1' }, { customer_id: 'cust-3' }, { customer_id: 'cust-4' },
    ]);
    // A PDF stands for a stored report: the customer whose reports were not stored has none.
    const pdfs = readdirSync(reportsDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.pdf')).map((f) => path.basename(f, '.pdf')).sort();
    expect(pdfs).toEqual(['cust-1', 'cust-3', 'cust-4']);
  });
});
