import type { DuckDBConnection } from '@duckdb/node-api';
import { queryFile, runScript } from '../src/db/script.js';
import type { Job, JobContext } from './job.js';

/** A range of customer ids: from `from_customer` up to, not including, `to_customer` (no end when null). */
interface Slice {
  from_customer: string;
  to_customer: string | null;
}

interface Drift {
  drift_rows: number;
  rows_checked: number;
  sample: string | null;
}

/** The most drifted rows a run records, the first in customer order. */
const SAMPLE_ROWS = 10;

/**
 * The store's customers in slices of some AFFORD_JOBS_SLICE_TRANSACTIONS
 * transactions (sql/jobs/rebuild-monthly-totals/slices.sql): the rebuild
 * computes and compares one slice at a time, so that the memory it needs
 * is a slice's, not the whole table's. A store with no transactions is one
 * slice, which still finds totals kept for nothing.
 */
async function slices(conn: DuckDBConnection, ctx: JobContext): Promise<Slice[]> {
  const found = await queryFile<Slice>(conn, 'jobs/rebuild-monthly-totals/slices', { slice_transactions: ctx.config.AFFORD_JOBS_SLICE_TRANSACTIONS }, {
    from_customer: 'text',
    to_customer: 'text',
  });
  return found.length > 0 ? found : [{ from_customer: '', to_customer: null }];
}

/** Compares the kept totals with the computed ones, slice by slice, in one transaction: one moment's data. */
async function measureDrift(ctx: JobContext): Promise<Record<string, unknown>> {
  return ctx.store.write(async (conn) => {
    let drift = 0;
    let checked = 0;
    const sample: unknown[] = [];
    const all = await slices(conn, ctx);
    for (const [i, slice] of all.entries()) {
      const [d] = await queryFile<Drift>(conn, 'jobs/rebuild-monthly-totals/measure-drift', { ...slice, sample_rows: SAMPLE_ROWS }, { drift_rows: 'number', rows_checked: 'number', sample: 'text' });
      drift += d?.drift_rows ?? 0;
      checked += d?.rows_checked ?? 0;
      if (d?.sample) sample.push(...(JSON.parse(d.sample) as unknown[]).slice(0, SAMPLE_ROWS - sample.length));
      ctx.progress?.(i + 1, 2 * all.length);
    }
    return { drift_rows: drift, rows_checked: checked, slices: all.length, sample: sample.length > 0 ? JSON.stringify(sample) : null };
  });
}

/**
 * Writes the whole table again from the transactions, slice by slice in
 * customer order, in one transaction: a reader sees the old table or the new
 * one, never a part. It runs even when nothing drifted, as the rewrite puts
 * each customer's rows together again after an ingest that wrote them in
 * arrival order.
 */
async function replace(ctx: JobContext): Promise<Record<string, unknown>> {
  return ctx.store.write(async (conn) => {
    const all = await slices(conn, ctx);
    await runScript(conn, 'jobs/rebuild-monthly-totals/clear');
    for (const [i, slice] of all.entries()) {
      await runScript(conn, 'jobs/rebuild-monthly-totals/insert-slice', { ...slice });
      ctx.progress?.(all.length + i + 1, 2 * all.length);
    }
    return { slices: all.length };
  });
}

export const rebuildMonthlyTotals: Job = {
  name: 'rebuild-monthly-totals',
  description: 'Recomputes monthly_category_totals from the transactions and reports any drift from the incrementally kept table.',
  schedule: 'nightly',
  everyCore: true,
  steps: [
    { name: 'measure-drift', run: measureDrift },
    { name: 'replace', run: replace },
  ],
  verdict: (results) => {
    const drift = Number(results['measure-drift']?.['drift_rows'] ?? 0);
    const checked = Number(results['measure-drift']?.['rows_checked'] ?? 0);
    return drift === 0
      ? { ok: true, message: `no drift in ${checked} monthly total rows` }
      : { ok: false, message: `drift in ${drift} of ${checked} monthly total rows; the table has been rebuilt` };
  },
};
