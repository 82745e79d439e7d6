import type { Job } from './job.js';
import { affordabilityReports } from './affordability-reports.js';
import { exportParquetJob } from './export-parquet.js';
import { rebuildMonthlyTotals } from './rebuild-monthly-totals.js';

/** Every job, in the order the nightly batch runs them. */
export const JOBS: readonly Job[] = [rebuildMonthlyTotals, affordabilityReports, exportParquetJob];

export function findJob(name: string): Job | undefined {
  return JOBS.find((j) => j.name === name);
}
