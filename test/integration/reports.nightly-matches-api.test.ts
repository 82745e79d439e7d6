import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob, reportPdfPath } from '../../jobs/affordability-reports.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { buildInsights } from '../../src/reports/insights-service.js';
import type { AffordabilityReport } from '../../src/reports/report-model.js';
import { listCustomers } from '../../src/reports/report-repository.js';
import { renderReportPdf } from '../../src/reports/report-pdf.js';
import { buildReport, buildReportWithTransactions } from '../../src/reports/report-service.js';
import { isRefused, provenanceOf, verifyPdf } from '../../src/reports/report-verify.js';
import { reportSigningKey, signPdf } from '../../src/reports/report-signature.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

/**
 * The nightly job reads a slice of customers with one set of queries (the
 * next slice read while this one is assembled and stored) and appends the
 * reports as text; the API reads one customer. Both must say the same for
 * every customer and range, to the byte, or the set-based path has drifted.
 */

type Ctx = Awaited<ReturnType<typeof tempStore>>;

const CUSTOMERS = 14;
const SLICE = 4;
const NOW = new Date('2024-07-15T02:00:00Z');
const RANGES: Record<number, { from: string; to: string }> = { 3: { from: '2024-04', to: '2024-06' }, 6: { from: '2024-01', to: '2024-06' }, 12: { from: '2023-07', to: '2024-06' } };

interface StoredReport { client_id: string; customer_id: string; range_months: number; report: string }
interface StoredInsights {
  client_id: string; customer_id: string; range_months: number; flags: string[]; disposable_income: string; deficit: boolean;
  deficit_months: string[]; verified_income_monthly: string; fixed_monthly: string; risk_signals: string;
}

describe('the nightly job, a slice at a time, against the API one customer at a time', () => {
  let ctx: Ctx;
  let pdfDir: string;
  beforeAll(async () => {
    ctx = await tempStore();
    // With faults: odd descriptions, unknown categories, late versions and deletions.
    await ingestGenerated(ctx, { customers: CUSTOMERS, months: 12, seed: 5, faults: true, endMonth: '2024-06' });
    pdfDir = path.join(ctx.dir, 'pdfs');
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_REPORTS_DIR: pdfDir, AFFORD_JOBS_SLICE_CUSTOMERS: String(SLICE) });
    const run = await runJob(createAffordabilityReportsJob({ now: () => NOW }), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
  }, 120_000);
  afterAll(async () => ctx.cleanup());

  it('stores for every customer and range the report the API builds for that customer alone, as the same JSON text', async () => {
    const stored = await rows<StoredReport>(ctx.store, 'SELECT client_id, customer_id, range_months, report::VARCHAR AS report FROM affordability_reports ORDER BY ALL');
    const customers = await listCustomers(ctx.store);
    expect(customers.length).toBeGreaterThan(SLICE * 2);
    expect(stored).toHaveLength(customers.length * 3);
    for (const row of stored) {
      const single = await buildReport(ctx.store, { clientId: row.client_id, customerId: row.customer_id, range: RANGES[row.range_months]!, currency: 'GBP' }, NOW);
      expect(JSON.parse(row.report), `${row.customer_id} ${row.range_months}`).toEqual(single);
      expect(row.report).toBe(JSON.stringify(single));
    }
  });

  it('stores beside each report the insights the API computes for that customer alone', async () => {
    const stored = await rows<StoredInsights>(ctx.store, `SELECT client_id, customer_id, range_months, flags, disposable_income::VARCHAR AS disposable_income, deficit,
        deficit_months, verified_income_monthly::VARCHAR AS verified_income_monthly, fixed_monthly::VARCHAR AS fixed_monthly, risk_signals::VARCHAR AS risk_signals
      FROM affordability_insights ORDER BY ALL`);
    expect(stored).toHaveLength((await listCustomers(ctx.store)).length * 3);
    let flagged = 0;
    for (const row of stored) {
      const live = await buildInsights(ctx.store, { clientId: row.client_id, customerId: row.customer_id, range: RANGES[row.range_months]!, currency: 'GBP' }, NOW);
      const d = live!.data;
      expect({ ...row, risk_signals: JSON.parse(row.risk_signals) as unknown }, `${row.customer_id} ${row.range_months}`).toEqual({
        client_id: row.client_id, customer_id: row.customer_id, range_months: row.range_months,
        flags: d.flags, disposable_income: d.disposable_income.overall_total.value, deficit: d.disposable_income.deficit,
        deficit_months: d.disposable_income.deficit_months, verified_income_monthly: d.income.verified.predicted_monthly.value,
        fixed_monthly: d.expenditure.fixed.predicted_monthly.value, risk_signals: d.risk_signals,
      });
      flagged += d.flags.length;
    }
    expect(flagged).toBeGreaterThan(0);
  });

  it('writes every customer\'s PDF, drawn while later slices were read, as the API draws it, and each verifies against the store', async () => {
    const stored = await rows<{ report: string }>(ctx.store, 'SELECT report::VARCHAR AS report FROM affordability_reports WHERE range_months = 12 ORDER BY ALL');
    for (const { report } of stored) {
      const parsed = JSON.parse(report) as AffordabilityReport;
      const pdf = readFileSync(reportPdfPath(pdfDir, parsed));
      // The job sends a worker only the evidence of raised flags; the API reads all of it: the same bytes either way.
      const m = parsed.metadata;
      const single = await buildReportWithTransactions(ctx.store, { clientId: m.client_id, customerId: m.customer_id, range: RANGES[12]!, currency: 'GBP' }, NOW);
      expect(pdf.equals(signPdf(await renderReportPdf(single!), await reportSigningKey(ctx.store))), m.customer_id).toBe(true);
      const provenance = provenanceOf(pdf);
      if (!provenance || isRefused(provenance)) throw new Error(`${m.customer_id}: the PDF carries no provenance afford takes`);
      const result = await verifyPdf(ctx.store, pdf, provenance);
      expect(result, JSON.stringify(result.changed_figures)).toMatchObject({ matches: true, intact: true, signature: 'holds', changed_figures: [], changed_transactions: [] });
    }
  });
});
