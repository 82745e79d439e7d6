import { monthStartDate } from '../domain/months.js';
import { dbFromIso } from '../domain/timestamps.js';
import { runScript } from '../db/script.js';
import type { Store } from '../db/store.js';
import type { AffordabilityReport } from './report-model.js';

/**
 * The affordability_reports table: what the nightly job keeps for data
 * teams. Reports go in as JSON batches, so thousands of them cost a few
 * statements rather than one insert each.
 */

export interface ArchivedReport {
  rangeMonths: number;
  report: AffordabilityReport;
}

// About 15 KB of JSON per 12-month report: a batch stays a few MB.
const BATCH = 250;

function row({ rangeMonths, report }: ArchivedReport) {
  const m = report.metadata;
  return {
    customer_id: m.customer_id,
    client_id: m.client_id,
    range_months: rangeMonths,
    month_from: monthStartDate(m.month_from),
    month_to: monthStartDate(m.month_to),
    currency: m.currency,
    generated_at: dbFromIso(m.generated_at),
    generator_version: m.generator.version,
    report,
  };
}

/** Saves the reports in one transaction: a customer's ranges change together. */
export async function saveReports(store: Store, reports: readonly ArchivedReport[]): Promise<number> {
  if (reports.length === 0) return 0;
  await store.write(async (conn) => {
    for (let i = 0; i < reports.length; i += BATCH) {
      const batch = reports.slice(i, i + BATCH).map(row);
      const keys = batch.map(({ client_id, customer_id, month_from, month_to, currency }) => ({ client_id, customer_id, month_from, month_to, currency }));
      await runScript(conn, 'queries/reports/save-reports', { keys: JSON.stringify(keys), reports: JSON.stringify(batch) });
    }
  });
  return reports.length;
}
