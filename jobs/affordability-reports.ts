import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lastCompleteMonths } from '../src/domain/months.js';
import { saveReports, type ArchivedReport } from '../src/reports/report-archive.js';
import { assembleReport } from '../src/reports/report-assembler.js';
import type { AffordabilityReport } from '../src/reports/report-model.js';
import { renderReportPdf } from '../src/reports/report-pdf.js';
import { readReportRows, type KeyedRange } from '../src/reports/report-repository.js';
import type { Job, JobContext } from './job.js';

/**
 * The nightly affordability reports: every customer, the last 3, 6 and 12
 * complete months. One set-based SQL pass reads the figures of all
 * customers and ranges; assembling, storing and (with AFFORD_REPORTS_DIR)
 * rendering PDFs follow per customer. A customer whose report fails is
 * logged and counted, and the run goes on with the others.
 */

export const REPORT_RANGE_MONTHS = [3, 6, 12] as const;
export const NIGHTLY_REPORT_CURRENCY = 'GBP';

export interface AffordabilityJobOptions {
  /** Runs before each customer's reports are assembled. Tests make it throw to prove one failure stays one failure. */
  beforeCustomer?: (customerId: string) => void | Promise<void>;
  /** The clock that picks the ranges; tests fix it. */
  now?: () => Date;
}

/** Where a customer's PDF goes: customer ids are arbitrary text, so they are encoded into one safe file name. */
export function reportPdfPath(dir: string, report: AffordabilityReport): string {
  const m = report.metadata;
  return path.join(dir, `${m.month_from}_${m.month_to}`, `${encodeURIComponent(m.customer_id)}.pdf`);
}

async function writePdf(dir: string, report: AffordabilityReport): Promise<string> {
  const file = reportPdfPath(dir, report);
  await mkdir(path.dirname(file), { recursive: true });
  // Written beside and renamed, so that a reader never sees half a PDF.
  const partial = `${file}.partial`;
  await writeFile(partial, await renderReportPdf(report));
  await rename(partial, file);
  return file;
}

const RANGE_FOLDER = /^\d{4}-\d{2}_\d{4}-\d{2}$/;

function safeDecode(name: string): string | undefined {
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}

/**
 * Removes the PDFs of customers the store no longer has (deleted since an
 * earlier run), in every range folder: their data must not outlive them here.
 */
async function pruneDeletedCustomers(dir: string, customers: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  const folders = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory() || !RANGE_FOLDER.test(folder.name)) continue;
    for (const file of await readdir(path.join(dir, folder.name))) {
      const customerId = file.endsWith('.pdf') ? safeDecode(file.slice(0, -4)) : undefined;
      if (customerId === undefined || customers.has(customerId)) continue; // not one of ours, or still a customer
      await rm(path.join(dir, folder.name, file), { force: true });
      removed++;
    }
  }
  return removed;
}

async function run(ctx: JobContext, options: AffordabilityJobOptions): Promise<Record<string, unknown>> {
  const log = ctx.logger.child({ job: 'affordability-reports' });
  const now = options.now?.() ?? new Date();
  const generatedAt = now.toISOString();
  const ranges: Array<KeyedRange & { months: number }> = REPORT_RANGE_MONTHS.map((n) => ({
    key: `${n}m`,
    months: n,
    range: lastCompleteMonths(n, now),
  }));
  const longest = ranges.at(-1);

  let started = Date.now();
  const byCustomer = await readReportRows(ctx.store, { customerId: null, ranges, currency: NIGHTLY_REPORT_CURRENCY });
  const queryMs = Date.now() - started;

  const pdfDir = ctx.config.AFFORD_REPORTS_DIR;
  const total = byCustomer.size * (pdfDir ? 2 : 1);
  let done = 0;
  const failed: string[] = [];
  const archived: ArchivedReport[] = [];
  const forPdf: AffordabilityReport[] = [];

  started = Date.now();
  for (const [customerId, rows] of byCustomer) {
    try {
      await options.beforeCustomer?.(customerId);
      const mine = ranges.map((r) => ({
        rangeMonths: r.months,
        report: assembleReport({
          request: { customerId, range: r.range, currency: NIGHTLY_REPORT_CURRENCY },
          rows,
          rangeKey: r.key,
          generatedAt,
        }),
      }));
      archived.push(...mine);
      const pdfReport = mine.find((m) => m.rangeMonths === longest?.months)?.report;
      if (pdfDir && pdfReport) forPdf.push(pdfReport);
    } catch (err) {
      failed.push(customerId);
      log.error({ customer_id: customerId, err }, 'affordability report failed for customer; continuing');
    }
    ctx.progress?.(++done, total);
  }
  const assembleMs = Date.now() - started;

  started = Date.now();
  const stored = await saveReports(ctx.store, archived);
  const storeMs = Date.now() - started;

  started = Date.now();
  let pdfs = 0;
  const pdfFailed: string[] = [];
  for (const report of forPdf) {
    try {
      await writePdf(pdfDir as string, report);
      pdfs++;
    } catch (err) {
      pdfFailed.push(report.metadata.customer_id);
      log.error({ customer_id: report.metadata.customer_id, err }, 'affordability PDF failed for customer; continuing');
    }
    ctx.progress?.(++done, total);
  }
  const pruned = pdfDir ? await pruneDeletedCustomers(pdfDir, new Set(byCustomer.keys())) : 0;
  const pdfMs = Date.now() - started;
  if (pdfDir) ctx.progress?.(total, total);

  const result = {
    customers: byCustomer.size,
    succeeded: byCustomer.size - failed.length,
    failed: failed.length,
    failed_customers: failed.slice(0, 20),
    reports_stored: stored,
    ranges: ranges.map((r) => `${r.range.from}..${r.range.to}`),
    pdfs_written: pdfs,
    pdfs_failed: pdfFailed.length,
    pdfs_of_deleted_customers_removed: pruned,
    pdf_failed_customers: pdfFailed.slice(0, 20),
    ms: { query: queryMs, assemble: assembleMs, store: storeMs, pdf: pdfMs },
  };
  log.info(result, 'affordability reports done');
  return result;
}

export function createAffordabilityReportsJob(options: AffordabilityJobOptions = {}): Job {
  return {
    name: 'affordability-reports',
    description: 'Computes every customer\'s affordability report for the last 3, 6 and 12 complete months into affordability_reports (and PDFs into AFFORD_REPORTS_DIR when set).',
    schedule: 'nightly',
    steps: [{ name: 'reports', run: (ctx) => run(ctx, options) }],
    verdict: (results) => {
      const r = results['reports'] ?? {};
      const customers = Number(r['customers'] ?? 0);
      const failed = Number(r['failed'] ?? 0);
      const pdfFailed = Number(r['pdfs_failed'] ?? 0);
      const message = `${Number(r['reports_stored'] ?? 0)} reports for ${customers - failed} of ${customers} customers` +
        (failed ? `; ${failed} customers failed` : '') +
        (r['pdfs_written'] || pdfFailed ? `; ${Number(r['pdfs_written'])} PDFs written, ${pdfFailed} failed` : '');
      // A partial run still stores every good report, but it must show as failed so someone looks at the log.
      return { ok: failed === 0 && pdfFailed === 0, message };
    },
  };
}

export const affordabilityReports = createAffordabilityReportsJob();
