import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { queryFile, runScript } from '../src/db/script.js';
import { SNAPSHOT_FILE, writeSnapshot } from './export-snapshot.js';
import { stopIfAsked, type Job, type JobContext } from './job.js';

export { SNAPSHOT_FILE };

/**
 * Exports for data teams, who cannot open the DuckDB file while the service
 * writes it: transactions, monthly totals, affordability reports and their insights as
 * Parquet partitioned by month (hive style, month=YYYY-MM), from one read
 * transaction, a month at a time, and beside them a snapshot DuckDB file of the data tables
 * (never the credentials: see sql/jobs/export-parquet/copy-snapshot.sql).
 */

export const EXPORTED_TABLES = ['transactions', 'monthly_category_totals', 'affordability_reports', 'affordability_insights'] as const;
type ExportedTable = (typeof EXPORTED_TABLES)[number];

/**
 * Each table is written one month at a time, a Parquet file per hive
 * partition: a COPY ... PARTITION_BY keeps a writer and its row group in
 * memory for every month at once, so its memory grew with the months the
 * store spans. Reports and their insights go a slice of
 * AFFORD_JOBS_SLICE_CUSTOMERS customers at a time (data_0.parquet,
 * data_1.parquet, ... in customer order): a month of 6,000 reports of some
 * 50 KB each did not fit the 256MB memory limit in one COPY.
 */
const COPY_MONTH: Record<ExportedTable, string> = {
  transactions: 'jobs/export-parquet/copy-transactions-month',
  monthly_category_totals: 'jobs/export-parquet/copy-monthly-totals-month',
  affordability_reports: 'jobs/export-parquet/copy-reports-month',
  affordability_insights: 'jobs/export-parquet/copy-insights-month',
};

/** One COPY of the export: a month of a table, or of reports and insights a slice of customers of that month. */
interface ExportPiece {
  table_name: ExportedTable;
  month: string;
  slice: number;
  first_customer: string | null;
  last_customer: string | null;
}
const PIECE_COLUMNS = { table_name: 'text', month: 'text', slice: 'number', first_customer: 'text', last_customer: 'text' } as const;

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}

const STAGING_PREFIX = '.staging-';
const DAY_MS = 24 * 3600 * 1000;

/** A run that died part-way leaves its staging folder; one a day old is surely not in use. */
async function removeStaleStaging(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => []);
  for (const name of entries) {
    const started = Number(name.slice(STAGING_PREFIX.length));
    if (name.startsWith(STAGING_PREFIX) && started < Date.now() - DAY_MS) await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/** One read transaction on `conn`, rolled back afterwards whatever happens: nothing is written. */
async function inSnapshot<T>(conn: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  await conn.run('BEGIN TRANSACTION');
  try {
    return await fn();
  } finally {
    await conn.run('ROLLBACK');
  }
}

async function exportParquet(ctx: JobContext): Promise<Record<string, unknown>> {
  const dir = path.resolve(ctx.config.AFFORD_EXPORT_DIR);
  await removeStaleStaging(dir);
  const staging = path.join(dir, `${STAGING_PREFIX}${Date.now()}`);
  await mkdir(staging, { recursive: true });
  const target = (table: string) => path.join(staging, table);
  try {
    // One snapshot: the four exports show the same moment. The session
    // setting goes on before the read transaction and comes off after it,
    // so that a failed COPY (which aborts the transaction) cannot leave it on
    // the pooled reader connection.
    const counts = await ctx.store.read(async (conn) => {
      await runScript(conn, 'jobs/export-parquet/begin-unordered');
      try {
        return await inSnapshot(conn, async () => {
          const pieces = await queryFile<ExportPiece>(conn, 'jobs/export-parquet/export-months', { slice_customers: ctx.config.AFFORD_JOBS_SLICE_CUSTOMERS }, PIECE_COLUMNS);
          for (const [i, { table_name: table, month, slice, first_customer, last_customer }] of pieces.entries()) {
            // Stopped part-way, the staging folder goes (below) and the export in place stays as it was.
            stopIfAsked(ctx, `after ${i} of the export's ${pieces.length} files`);
            const folder = path.join(target(table), `month=${month}`);
            await mkdir(folder, { recursive: true });
            const file = path.join(folder, `data_${slice}.parquet`);
            await runScript(conn, COPY_MONTH[table], { month, file, ...(first_customer === null ? {} : { first_customer, last_customer }) });
            ctx.progress?.(i + 1, pieces.length);
          }
          return (await queryFile<Record<string, number>>(conn, 'jobs/export-parquet/count-rows', {}, { transactions: 'number', monthly_category_totals: 'number', affordability_reports: 'number', affordability_insights: 'number' }))[0] ?? {};
        });
      } finally {
        await runScript(conn, 'jobs/export-parquet/end-unordered');
      }
    });
    // Swap each table's folder in with two renames, so readers see the old export or the new one, never a mix of files.
    for (const table of EXPORTED_TABLES) {
      await mkdir(target(table), { recursive: true }); // COPY writes no folder for an empty table
      const live = path.join(dir, table);
      const old = path.join(staging, `${table}.old`);
      if (await exists(live)) await rename(live, old);
      await rename(target(table), live);
    }
    return { dir, rows: counts };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export const exportParquetJob: Job = {
  name: 'export-parquet',
  description: 'Writes transactions, monthly totals, affordability reports and their insights as Parquet partitioned by month to AFFORD_EXPORT_DIR, with a snapshot DuckDB file of the data tables (no credentials).',
  schedule: 'nightly',
  everyCore: true,
  steps: [
    { name: 'parquet', run: exportParquet },
    { name: 'snapshot', run: writeSnapshot },
  ],
  verdict: (results) => {
    const rows = (results['parquet']?.['rows'] ?? {}) as Record<string, number>;
    const counts = EXPORTED_TABLES.map((t) => `${rows[t] ?? 0} ${t}`).join(', ');
    const snap = results['snapshot'] ?? {};
    const copy = snap['file'] ? `; snapshot ${snap['file']}` : '';
    return { ok: true, message: `exported ${counts} to ${String(results['parquet']?.['dir'])}${copy}` };
  },
};
