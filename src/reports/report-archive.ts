import { monthStartDate } from '../domain/months.js';
import { dbFromIso } from '../domain/timestamps.js';
import { runScript } from '../db/script.js';
import type { Store } from '../db/store.js';
import type { AffordabilityReport } from './report-model.js';

/**
 * The affordability_reports table, and affordability_insights beside it:
 * what the nightly job keeps for data teams. Reports go in as JSON batches, so thousands of them cost a few
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

/** The affordability_insights row of a report: the columns of sql/queries/reports/save-insights.sql. */
function insightsRow(r: ReturnType<typeof row>) {
  const i = r.report.data.insights;
  return {
    customer_id: r.customer_id,
    client_id: r.client_id,
    range_months: r.range_months,
    month_from: r.month_from,
    month_to: r.month_to,
    currency: r.currency,
    generated_at: r.generated_at,
    flags: i.flags,
    disposable_income: i.disposable_income.overall_total.value,
    deficit: i.disposable_income.deficit,
    deficit_months: i.disposable_income.deficit_months,
    verified_income_monthly: i.income.verified.predicted_monthly.value,
    fixed_monthly: i.expenditure.fixed.predicted_monthly.value,
    risk_signals: i.risk_signals,
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
      // The insights go beside, in the same transaction: a data team reads them without parsing reports.
      await runScript(conn, 'queries/reports/save-insights', { keys: JSON.stringify(keys), insights: JSON.stringify(batch.map(insightsRow)) });
    }
  });
  return reports.length;
}
