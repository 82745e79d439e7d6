import type { Job } from './job.js';

export const rebuildMonthlyTotals: Job = {
  name: 'rebuild-monthly-totals',
  description: 'Recomputes monthly_category_totals from the transactions and reports any drift from the incrementally kept table.',
  schedule: 'nightly',
  everyCore: true,
  steps: [
    { name: 'measure-drift', sql: 'rebuild-monthly-totals/measure-drift' },
    { name: 'replace', sql: 'rebuild-monthly-totals/replace' },
  ],
  verdict: (results) => {
    const drift = Number(results['measure-drift']?.['drift_rows'] ?? 0);
    const checked = Number(results['measure-drift']?.['rows_checked'] ?? 0);
    return drift === 0
      ? { ok: true, message: `no drift in ${checked} monthly total rows` }
      : { ok: false, message: `drift in ${drift} of ${checked} monthly total rows; the table has been rebuilt` };
  },
};
