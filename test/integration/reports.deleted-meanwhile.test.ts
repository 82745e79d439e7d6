import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob, reportPdfPath } from '../../jobs/affordability-reports.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import type { AffordabilityReport } from '../../src/reports/report-model.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

const CUSTOMERS = 6;
const NOW = new Date('2024-07-15T02:00:00Z');
// The generator puts customers 2, 3, 4 and 6 with client-2, 1 and 5 with client-1.
const CLIENT = 'client-2';
// Deleted now, after everything the generator wrote for them: nothing of theirs stays.
const GONE = 'cust-000002';
// Deleted as of the start of 2024: their later records stay, and so do they.
const KEPT = 'cust-000004';

const deletion = (customerId: string, occurredAt: string) => ({
  raw: JSON.stringify({ event_id: `del-${customerId}`, type: 'customer.deleted', occurred_at: occurredAt, client_id: CLIENT, customer_id: customerId, data: {} }),
  ref: { source: 'file' as const, sourceRef: 'deletions.ndjson', lineNumber: 1 },
});

/** The 12-month PDF's path of a customer (the only range the job draws). */
const pdfOf = (dir: string, customerId: string, clientId = CLIENT): string =>
  reportPdfPath(dir, { metadata: { month_from: '2023-07', month_to: '2024-06', client_id: clientId, customer_id: customerId } } as AffordabilityReport);

describe('the nightly reports of a customer deleted while the job runs', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  /** A store of generated customers after a first night, which drew every customer's PDF (KEPT's holds what a deletion will remove). */
  async function afterFirstNight() {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    await ingestGenerated(ctx, { customers: CUSTOMERS, months: 12, seed: 11, faults: false, endMonth: '2024-06' });
    const pdfs = path.join(ctx.dir, 'pdfs');
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_REPORTS_DIR: pdfs });
    await runJob(createAffordabilityReportsJob({ now: () => NOW }), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(existsSync(pdfOf(pdfs, KEPT))).toBe(true);
    return { ctx, pdfs, config };
  }

  it('are not stored, nor drawn, when the deletion commits after their rows were read', async () => {
    const { ctx, pdfs, config } = await afterFirstNight();

    const job = createAffordabilityReportsJob({
      now: () => NOW,
      // One slice: every customer's rows are read before the first is assembled; the deletions then commit.
      beforeCustomer: async (id) => {
        if (id === GONE) expect((await ctx.pipeline.ingest([deletion(GONE, new Date().toISOString())])).deadLetters).toEqual([]);
        if (id === KEPT) expect((await ctx.pipeline.ingest([deletion(KEPT, '2024-01-01T00:00:00Z')])).deadLetters).toEqual([]);
      },
    });
    const run = await runJob(job, { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.results['reports']).toMatchObject({ customers: CUSTOMERS, failed: 0, reports_stored: (CUSTOMERS - 2) * 3, not_stored_deleted_meanwhile: 2 });
    expect(run.status).toBe('succeeded');

    const stored = await rows<{ customer_id: string; n: number }>(ctx.store,
      `SELECT customer_id, count(*)::INTEGER AS n FROM affordability_reports GROUP BY ALL ORDER BY 1`);
    expect(stored.map((r) => r.customer_id)).toEqual(['cust-000001', 'cust-000003', 'cust-000005', 'cust-000006']);
    const insights = await rows<{ customer_id: string }>(ctx.store, `SELECT DISTINCT customer_id FROM affordability_insights ORDER BY 1`);
    expect(insights.map((r) => r.customer_id)).toEqual(['cust-000001', 'cust-000003', 'cust-000005', 'cust-000006']);
    // The customer who stays still has their records after 2024-01-01, and the one gone has none.
    const left = await rows<{ customer_id: string }>(ctx.store, `SELECT DISTINCT customer_id FROM transactions WHERE customer_id IN ('${GONE}', '${KEPT}') ORDER BY 1`);
    expect(left).toEqual([{ customer_id: KEPT }]);

    expect(existsSync(pdfOf(pdfs, GONE))).toBe(false);
    expect(existsSync(pdfOf(pdfs, KEPT))).toBe(false);
    expect(existsSync(pdfOf(pdfs, 'cust-000001', 'client-1'))).toBe(true);
    expect(existsSync(pdfOf(pdfs, 'cust-000003'))).toBe(true);
  });

  it('leaves no PDF made before a deletion, in any range folder, of a customer the deletion leaves in the store', async () => {
    const { ctx, pdfs, config } = await afterFirstNight();
    // Between two nights: the deletion keeps the customer's records of 2024 and later, and the customer.
    expect((await ctx.pipeline.ingest([deletion(KEPT, '2024-01-01T00:00:00Z')])).deadLetters).toEqual([]);
    // The next night is a month on: its PDFs go to a folder of their own, beside the first night's.
    const later = new Date('2024-08-15T02:00:00Z');
    const run = await runJob(createAffordabilityReportsJob({ now: () => later }), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status).toBe('succeeded');
    const laterPdf = reportPdfPath(pdfs, { metadata: { month_from: '2023-08', month_to: '2024-07', client_id: CLIENT, customer_id: KEPT } } as AffordabilityReport);
    expect(existsSync(laterPdf)).toBe(true);
    expect(existsSync(pdfOf(pdfs, KEPT))).toBe(false);
    // Another customer's PDF of the first night stays: history, not data a deletion removed.
    expect(existsSync(pdfOf(pdfs, 'cust-000003'))).toBe(true);
  });
});
