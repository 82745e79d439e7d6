import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { queryFile, runScript, runScriptWithPaths } from '../src/db/script.js';
import { inTransaction } from '../src/db/in-transaction.js';
import type { JobContext } from './job.js';
import { withDbSettingsOn } from '../src/db/db-settings.js';
import { REPORT_PARTS_CHECKPOINT_SETTINGS } from '../src/reports/report-parts.js';

export const SNAPSHOT_FILE = 'afford-snapshot.duckdb';

/**
 * Writes the snapshot for data teams with DuckDB itself: a new file is
 * attached to the service's instance and the allowed data tables are copied
 * into it on the writer queue, so nothing changes during the copy: the
 * tables in one transaction, then the reports and insights a slice of
 * AFFORD_JOBS_SLICE_CUSTOMERS customers per transaction (one transaction
 * held all 330 MB of a 2,000-customer store's reports in memory), each
 * checkpointed into the file before the next. The live file is never opened or copied by the file
 * system (closing any descriptor of it would drop the process's lock), and
 * no credential table goes into the copy. Written under a temporary name and
 * renamed into place, so a reader sees the old snapshot or the new one.
 */
export async function writeSnapshot(ctx: JobContext): Promise<Record<string, unknown>> {
  const dir = path.resolve(ctx.config.AFFORD_EXPORT_DIR);
  const file = path.join(dir, SNAPSHOT_FILE);
  const partial = `${file}.partial`;
  await mkdir(dir, { recursive: true });
  // Leftovers of a run that died part-way would be opened as the new file.
  await rm(partial, { force: true });
  await rm(`${partial}.wal`, { force: true });
  const tables = await ctx.store.writeUntransacted(async (conn) => {
    await runScriptWithPaths(conn, 'jobs/export-parquet/attach-snapshot', { snapshot_file: partial });
    let attached = true;
    try {
      await inTransaction(conn, () => runScript(conn, 'jobs/export-parquet/copy-snapshot'));
      // The data tables go into the file with every compression method; the reports' parts after them, as parts are best checkpointed.
      await runScript(conn, 'jobs/export-parquet/checkpoint-snapshot');
      const slices = await queryFile<{ first_customer: string; last_customer: string }>(conn, 'jobs/export-parquet/snapshot-report-slices', { slice_customers: ctx.config.AFFORD_JOBS_SLICE_CUSTOMERS }, { first_customer: 'text', last_customer: 'text' });
      await withDbSettingsOn(conn, REPORT_PARTS_CHECKPOINT_SETTINGS, async () => {
        for (const slice of slices) {
          await inTransaction(conn, () => runScript(conn, 'jobs/export-parquet/copy-snapshot-reports-slice', slice));
          await runScript(conn, 'jobs/export-parquet/checkpoint-snapshot');
        }
      });
      const counts = await queryFile<{ table_name: string; rows: string }>(conn, 'jobs/export-parquet/snapshot-tables', {}, { table_name: 'text', rows: 'text' });
      await runScript(conn, 'jobs/export-parquet/finish-snapshot');
      attached = false;
      return Object.fromEntries(counts.map((c) => [c.table_name, Number(c.rows)]));
    } finally {
      if (attached) await conn.run('DETACH afford_snapshot').catch(() => undefined);
    }
  }).catch(async (err: unknown) => {
    await rm(partial, { force: true });
    await rm(`${partial}.wal`, { force: true });
    throw err;
  });
  // A stale WAL beside the new file would be replayed into it: remove it first.
  await rm(`${file}.wal`, { force: true });
  await rename(partial, file);
  ctx.progress?.(2, 2);
  return { file, tables };
}
