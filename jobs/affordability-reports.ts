import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lastCompleteMonths } from '../src/domain/months.js';
import { saveReports, type ArchivedReport } from '../src/reports/report-archive.js';
import { assembleReport } from '../src/reports/report-assembler.js';
import type { AffordabilityReport } from '../src/reports/report-model.js';
import { sharedPdfPool, type PdfRenderer } from '../src/reports/pdf-pool.js';
import type { PdfInput } from '../src/reports/report-pdf.js';
import { evidenceOfRaisedFlags } from '../src/reports/report-evidence.js';
import { customerKey, type CustomerRef } from '../src/domain/customer-ref.js';
import { listCustomers, listDeletions, readReportRows, type CustomerReportRows, type KeyedRange } from '../src/reports/report-repository.js';
import { withDbThreads } from '../src/db/threads.js';
import { pdfPathOf } from './report-pdf-paths.js';
import { pruneDeletedCustomers, pruneOutdatedByDeletion } from './report-pdf-prune.js';
import { REPORT_PARTS_CHECKPOINT_SETTINGS } from '../src/reports/report-parts.js';
import { reportSigningKey, signPdf } from '../src/reports/report-signature.js';
import { stopIfAsked, type Job, type JobContext } from './job.js';

/**
 * The nightly affordability reports: every customer, the last 3, 6 and 12
 * complete months. Customers go in chunks (AFFORD_JOBS_SLICE_CUSTOMERS): one
 * set-based SQL pass, in one snapshot, reads the figures and insights of a
 * whole chunk for all three ranges (and with AFFORD_REPORTS_DIR the
 * transactions behind the 12-month reports); assembling, storing and
 * rendering PDFs follow. Three things run at once: DuckDB reads the next
 * two chunks (each on its own connection), this thread assembles the chunk
 * and DuckDB stores it, and the PDF workers draw the chunk before. A customer whose report fails is logged
 * and counted, and the run goes on.
 */

export const REPORT_RANGE_MONTHS = [3, 6, 12] as const;
export const NIGHTLY_REPORT_CURRENCY = 'GBP';
/** Chunks read ahead of the one being assembled. */
const READ_AHEAD = 2;

export interface AffordabilityJobOptions {
  /** Runs before each customer's reports are assembled. Tests make it throw to prove one failure stays one failure. */
  beforeCustomer?: (customerId: string) => void | Promise<void>;
  /** The clock that picks the ranges; tests fix it. */
  now?: () => Date;
  /** Customers per set-based pass (default AFFORD_JOBS_SLICE_CUSTOMERS). */
  chunkSize?: number;
}

/** Where a customer's PDF goes (report-pdf-paths.ts). */
export function reportPdfPath(dir: string, report: AffordabilityReport): string {
  const m = report.metadata;
  return pdfPathOf(dir, { from: m.month_from, to: m.month_to }, { clientId: m.client_id, customerId: m.customer_id });
}


/** `made`: the folders this run has made already (one per range and client, which every PDF would ask for again). */
async function writePdf(dir: string, pool: PdfRenderer, key: Buffer, made: Set<string>, input: PdfInput, reportJson?: string): Promise<string> {
  const file = reportPdfPath(dir, input.report);
  const pdf = signPdf(await pool.render(input, reportJson), key);
  const folder = path.dirname(file);
  if (!made.has(folder)) {
    await mkdir(folder, { recursive: true });
    made.add(folder);
  }
  // Written beside and renamed, so that a reader never sees half a PDF.
  const partial = `${file}.partial`;
  await writeFile(partial, pdf);
  await rename(partial, file);
  return file;
}

interface RunState {
  ranges: Array<KeyedRange & { months: number }>;
  generatedAt: string;
  pdfDir: string | undefined;
  /** Renders the PDFs on worker threads (one per core), while this thread reads and stores. */
  pool: PdfRenderer | undefined;
  /** The store's report signing key, which every PDF is signed with (report-signature.ts). */
  signingKey: Buffer | undefined;
  /** The PDFs of the last chunk, still being drawn. */
  pdfsInFlight?: Promise<void>;
  failed: string[];
  pdfFailed: string[];
  /** Customers deleted after their rows were read: their reports were not stored, and their PDFs go. */
  refused: CustomerRef[];
  /** Customers whose reports the store could not take: their PDFs of this run are removed. */
  notStored: CustomerRef[];
  madeFolders: Set<string>;
  stored: number;
  /** The customers whose PDF of this run stands (written, and not removed since). */
  pdfsWritten: Set<string>;
  ms: { query: number; assemble: number; store: number; pdf: number };
}

type ChunkRows = Map<string, CustomerReportRows>;

/**
 * One chunk's set-based read (the figures, coverage, accounts and insights
 * of all its customers for all three ranges, and with PDFs their
 * transactions and flag evidence), in one snapshot. A failed read fails the
 * chunk's customers together (logged here, counted by the caller); the next
 * chunk may well succeed.
 */
async function readChunk(ctx: JobContext, state: RunState, customers: readonly CustomerRef[]): Promise<ChunkRows | undefined> {
  const started = Date.now();
  try {
    // The PDF's range also reads the transactions behind it (its provenance), in the same snapshot.
    const refsRange = state.pdfDir ? state.ranges.at(-1)?.key : undefined;
    return await readReportRows(ctx.store, { customers, ranges: state.ranges, currency: NIGHTLY_REPORT_CURRENCY, refsRange, deletionMarks: true });
  } catch (err) {
    ctx.logger.error({ job: 'affordability-reports', err, customers: customers.length, first_customer_id: customers[0]?.customerId },
      'affordability report query failed for a chunk; continuing');
    return undefined;
  } finally {
    state.ms.query += Date.now() - started;
  }
}

/**
 * One chunk of customers, once read: the reports assembled, stored in one
 * transaction (so each customer's three ranges change together), and the
 * PDFs handed to the workers. Chunks bound the memory a run needs, whatever
 * the number of customers.
 */
async function runChunk(ctx: JobContext, options: AffordabilityJobOptions, state: RunState, customers: readonly CustomerRef[], byCustomer: ChunkRows | undefined): Promise<void> {
  const log = ctx.logger.child({ job: 'affordability-reports' });
  if (!byCustomer) {
    state.failed.push(...customers.map((c) => c.customerId));
    return;
  }
  const started = Date.now();
  const archived: ArchivedReport[] = [];
  const forPdf: Array<{ input: PdfInput; json?: string }> = [];
  const longest = state.ranges.at(-1)?.months;
  for (const rows of byCustomer.values()) {
    const { client_id: clientId, customer_id: customerId } = rows.accounts;
    try {
      await options.beforeCustomer?.(customerId);
      const mine: ArchivedReport[] = state.ranges.map((r) => {
        const report = assembleReport({ request: { clientId, customerId, range: r.range, currency: NIGHTLY_REPORT_CURRENCY }, rows, rangeKey: r.key, generatedAt: state.generatedAt });
        // Made once: stored as this text, and the PDF worker is sent the same.
        return { rangeMonths: r.months, report, json: JSON.stringify(report), deletionMark: rows.deletionMark ?? null };
      });
      archived.push(...mine);
      const pdfReport = mine.find((m) => m.rangeMonths === longest);
      if (pdfReport && state.pdfDir) {
        // The appendix shows the evidence of raised flags only: the worker is sent just that.
        const evidence = evidenceOfRaisedFlags(pdfReport.report.data.insights, rows.evidence ?? []);
        forPdf.push({ input: { report: pdfReport.report, transactions: rows.transactionRefs ?? '[]', evidence }, json: pdfReport.json });
      }
    } catch (err) {
      state.failed.push(customerId);
      log.error({ client_id: clientId, customer_id: customerId, err }, 'affordability report failed for customer; continuing');
    }
  }
  state.ms.assemble += Date.now() - started;

  // The chunk's PDFs go to the workers while its reports are stored: DuckDB stores, the workers draw.
  const [saved] = await Promise.all([timed(state, 'store', storeChunk(ctx, state, log, archived)), sendPdfs(state, log, forPdf)]);
  state.stored += saved.stored;
  state.refused.push(...saved.refused);
  if (saved.refused.length > 0) log.info({ customers: saved.refused.length }, 'reports not stored: their customers were deleted after the reports were read');
}

/**
 * Stores a chunk's reports in one transaction; when that fails, each
 * customer's alone, so that one customer the store cannot take (an insight
 * figure past what its column holds) fails that customer, not the rest of
 * the chunk and every chunk after it.
 */
async function storeChunk(ctx: JobContext, state: RunState, log: JobContext['logger'], archived: readonly ArchivedReport[]): Promise<{ stored: number; refused: CustomerRef[] }> {
  try {
    return await saveReports(ctx.store, archived);
  } catch (err) {
    log.warn({ err, reports: archived.length }, 'storing a chunk of reports failed; storing each customer alone');
  }
  const byCustomer = new Map<string, ArchivedReport[]>();
  for (const a of archived) {
    const key = JSON.stringify([a.report.metadata.client_id, a.report.metadata.customer_id]);
    byCustomer.set(key, [...(byCustomer.get(key) ?? []), a]);
  }
  const total = { stored: 0, refused: [] as CustomerRef[] };
  for (const reports of byCustomer.values()) {
    const { client_id: clientId, customer_id: customerId } = (reports[0] as ArchivedReport).report.metadata;
    try {
      const saved = await saveReports(ctx.store, reports);
      total.stored += saved.stored;
      total.refused.push(...saved.refused);
    } catch (err) {
      state.failed.push(customerId);
      state.notStored.push({ clientId, customerId });
      log.error({ client_id: clientId, customer_id: customerId, err }, 'affordability reports could not be stored for customer; continuing');
    }
  }
  return total;
}

async function timed<T>(state: RunState, part: 'store', work: Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work;
  } finally {
    state.ms[part] += Date.now() - started;
  }
}

/**
 * Hands a chunk's PDFs to the workers, all at once and not awaited: they draw
 * them while this thread stores the chunk and assembles the next. The
 * previous chunk's PDFs finish first, so at most two chunks' PDFs wait in memory.
 */
async function sendPdfs(state: RunState, log: JobContext['logger'], forPdf: ReadonlyArray<{ input: PdfInput; json?: string }>): Promise<void> {
  const { pdfDir, pool, signingKey } = state;
  if (!pdfDir || !pool || !signingKey) return;
  await state.pdfsInFlight;
  const started = Date.now();
  state.pdfsInFlight = Promise.all(forPdf.map(async ({ input, json }) => {
    try {
      await writePdf(pdfDir, pool, signingKey, state.madeFolders, input, json);
      state.pdfsWritten.add(customerKey(input.report.metadata.client_id, input.report.metadata.customer_id));
    } catch (err) {
      state.pdfFailed.push(input.report.metadata.customer_id);
      log.error({ customer_id: input.report.metadata.customer_id, err }, 'affordability PDF failed for customer; continuing');
    }
  })).then(() => {
    state.ms.pdf += Date.now() - started;
  });
}

async function run(ctx: JobContext, options: AffordabilityJobOptions): Promise<Record<string, unknown>> {
  const now = options.now?.() ?? new Date();
  const state: RunState = {
    ranges: REPORT_RANGE_MONTHS.map((n) => ({ key: `${n}m`, months: n, range: lastCompleteMonths(n, now) })),
    generatedAt: now.toISOString(),
    pdfDir: ctx.config.AFFORD_REPORTS_DIR,
    pool: ctx.config.AFFORD_REPORTS_DIR ? sharedPdfPool() : undefined,
    signingKey: ctx.config.AFFORD_REPORTS_DIR ? await reportSigningKey(ctx.store) : undefined,
    failed: [],
    notStored: [],
    pdfFailed: [],
    refused: [],
    madeFolders: new Set(),
    stored: 0,
    pdfsWritten: new Set(),
    ms: { query: 0, assemble: 0, store: 0, pdf: 0 },
  };
  const customers = await listCustomers(ctx.store);
  const chunkSize = options.chunkSize ?? ctx.config.AFFORD_JOBS_SLICE_CUSTOMERS;
  const chunks: CustomerRef[][] = [];
  for (let i = 0; i < customers.length; i += chunkSize) chunks.push(customers.slice(i, i + chunkSize));
  // The next chunks are read while this one is assembled and stored (and its PDFs drawn): DuckDB's threads
  // and this one work at once. READ_AHEAD reads run at a time, each on its own read connection in its own
  // snapshot, so that a slow read (or a store holding the writer) never leaves this thread waiting for rows.
  // At most READ_AHEAD + 1 chunks' rows are held.
  const reading: Array<Promise<ChunkRows | undefined>> = chunks.slice(0, READ_AHEAD).map((chunk) => readChunk(ctx, state, chunk));
  for (let i = 0; i < chunks.length; i++) {
    if (ctx.signal?.aborted) {
      // The chunks stored so far stand; the reads started and the PDFs being drawn end first, so nothing is left half done.
      await Promise.all(reading);
      await state.pdfsInFlight;
      stopIfAsked(ctx, `after ${Math.min(i * chunkSize, customers.length)} of ${customers.length} customers`);
    }
    const rows = await reading.shift();
    const next = chunks[i + READ_AHEAD];
    if (next) reading.push(readChunk(ctx, state, next));
    await runChunk(ctx, options, state, chunks[i] ?? [], rows);
    ctx.progress?.(Math.min((i + 1) * chunkSize, customers.length), customers.length);
  }
  await state.pdfsInFlight;
  // The customers as they are now: one deleted during the run keeps no PDF, nor does one deleted since a PDF was made.
  const pruned = state.pdfDir
    ? (await pruneDeletedCustomers(state.pdfDir, await listCustomers(ctx.store))) + (await pruneOutdatedByDeletion(state.pdfDir, await listDeletions(ctx.store)))
    : 0;
  const pdfDir = state.pdfDir;
  if (pdfDir) {
    // A customer deleted after their rows were read, who still exists (with records newer than the deletion), keeps no PDF
    // either; nor does one whose reports could not be stored, as a PDF stands for a stored report.
    const removed = [...state.refused, ...state.notStored];
    await Promise.all(removed.flatMap((c) => state.ranges.map((r) => rm(pdfPathOf(pdfDir, r.range, c), { force: true }))));
    for (const c of removed) state.pdfsWritten.delete(customerKey(c.clientId, c.customerId));
  }

  const result = {
    customers: customers.length,
    succeeded: customers.length - state.failed.length,
    failed: state.failed.length,
    failed_customers: state.failed.slice(0, 20),
    reports_stored: state.stored,
    ranges: state.ranges.map((r) => `${r.range.from}..${r.range.to}`),
    pdfs_written: state.pdfsWritten.size,
    pdfs_failed: state.pdfFailed.length,
    pdf_failed_customers: state.pdfFailed.slice(0, 20),
    pdfs_of_deleted_customers_removed: pruned,
    not_stored_deleted_meanwhile: state.refused.length,
    ms: state.ms,
  };
  ctx.logger.info({ job: 'affordability-reports', ...result }, 'affordability reports done');
  return result;
}

export function createAffordabilityReportsJob(options: AffordabilityJobOptions = {}): Job {
  return {
    name: 'affordability-reports',
    description: 'Computes every customer\'s affordability report for the last 3, 6 and 12 complete months into affordability_reports (and PDFs into AFFORD_REPORTS_DIR when set).',
    schedule: 'nightly',
    // What it stored, the reports in parts, is checkpointed as parts are best checkpointed.
    dbSettings: REPORT_PARTS_CHECKPOINT_SETTINGS,
    // Its reads are many small queries, two at a time: DuckDB spreading each over every core costs more CPU than it saves.
    steps: [{ name: 'reports', run: (ctx) => withDbThreads(ctx.store, ctx.config.AFFORD_JOBS_DB_THREADS, () => run(ctx, options)) }],
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
