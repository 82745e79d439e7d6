import type { Job } from './job.js';

/**
 * The insights beside the reports: the nightly reports carry their insights
 * (computed in the same read as their figures), and this job files them in
 * affordability_insights, so a data team can query flags, deficits and
 * verified income without opening the reports' JSON.
 */
export const affordabilityInsights: Job = {
  name: 'affordability-insights',
  description: 'Files the insights of the nightly reports (income streams, commitments, disposable income, risk signals) in affordability_insights, one row per report.',
  schedule: 'nightly',
  steps: [{ name: 'from-reports', sql: 'affordability-insights/from-reports' }],
  verdict: (results) => {
    const r = results['from-reports'] ?? {};
    return { ok: true, message: `${Number(r['stored'] ?? 0)} insights stored, ${Number(r['flagged'] ?? 0)} with a flag, ${Number(r['in_deficit'] ?? 0)} in deficit` };
  },
};
