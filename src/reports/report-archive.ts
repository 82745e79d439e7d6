import { DuckDBDataChunk, JSToDuckDBValueConverter, type DuckDBConnection } from '@duckdb/node-api';
import { monthStartDate } from '../domain/months.js';
import { dbFromIso } from '../domain/timestamps.js';
import { runScript } from '../db/script.js';
import type { Store } from '../db/store.js';
import type { AffordabilityReport } from './report-model.js';
import { reportParts } from './report-parts.js';
import type { CustomerRef } from '../domain/customer-ref.js';
import { readDeletionMarksOn, reportKey } from './report-repository.js';

/**
 * The nightly reports (affordability_reports, stored in parts in
 * affordability_report_parts), and affordability_insights beside them:
 * what the nightly job keeps for data teams. A 12-month report with its
 * insights is about 55 KB of JSON, a slice of customers tens of MB: the
 * reports go to DuckDB through an appender as the JSON text they already
 * are, in parts under 4 KB, since binding them as one JSON parameter made
 * DuckDB parse all of it again (about half the job's storing time). The
 * insights' columns are small and go in as a JSON batch.
 */

export interface ArchivedReport {
  rangeMonths: number;
  report: AffordabilityReport;
  /** JSON.stringify(report), when the caller made it already (the nightly job also sends it to a PDF worker). */
  json?: string;
  /**
   * The customer's deletion mark as the report's rows were read (deletion-marks.sql). When given, the report
   * is stored only if the mark is unchanged: a customer deleted since then keeps no report of the data removed.
   */
  deletionMark?: string | null;
}

/** What saveReports did: the reports stored, and the customers whose reports it refused for a deletion since their read. */
export interface SavedReports {
  stored: number;
  refused: CustomerRef[];
}

// Reports per statement.
const BATCH = 250;

function keyOf({ report }: ArchivedReport) {
  const m = report.metadata;
  return { client_id: m.client_id, customer_id: m.customer_id, month_from: monthStartDate(m.month_from), month_to: monthStartDate(m.month_to), currency: m.currency };
}

/** The affordability_insights row of a report: the columns of sql/queries/reports/save-insights.sql. */
function insightsRow({ rangeMonths, report }: ArchivedReport) {
  const m = report.metadata;
  const i = report.data.insights;
  return {
    customer_id: m.customer_id,
    client_id: m.client_id,
    range_months: rangeMonths,
    month_from: monthStartDate(m.month_from),
    month_to: monthStartDate(m.month_to),
    currency: m.currency,
    generated_at: dbFromIso(m.generated_at),
    flags: i.flags,
    disposable_income: i.disposable_income.overall_total.value,
    deficit: i.disposable_income.deficit,
    deficit_months: i.disposable_income.deficit_months,
    verified_income_monthly: i.income.verified.predicted_monthly.value,
    fixed_monthly: i.expenditure.fixed.predicted_monthly.value,
    risk_signals: i.risk_signals,
  };
}

/** A month's first day (or an instant) at 00:00 UTC, as the appender's DATE and TIMESTAMP take it. */
const utc = (iso: string): Date => new Date(iso);

/** One stored part of a report: its key columns, then the part's number and text. */
interface PartRow {
  meta: AffordabilityReport['metadata'];
  rangeMonths: number;
  part: number;
  text: string;
}

// Rows per appended data chunk: DuckDB's vector size.
const CHUNK_ROWS = 2048;

/**
 * Appends a batch's reports to affordability_report_parts on `conn`, inside
 * its open transaction, in data chunks of columns in the table's order (see
 * sql/migrations/013_report_parts.sql): each report's text in parts under
 * 4 KB (report-parts.ts).
 */
async function appendReports(conn: DuckDBConnection, batch: readonly ArchivedReport[]): Promise<void> {
  const rows: PartRow[] = [];
  for (const b of batch) {
    const parts = reportParts(b.json ?? JSON.stringify(b.report));
    for (let part = 0; part < parts.length; part++) rows.push({ meta: b.report.metadata, rangeMonths: b.rangeMonths, part, text: parts[part] ?? '' });
  }
  const appender = await conn.createAppender('affordability_report_parts');
  try {
    const types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
    for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
      const slice = rows.slice(i, i + CHUNK_ROWS);
      const meta = slice.map((r) => r.meta);
      const chunk = DuckDBDataChunk.create(types, slice.length);
      chunk.setColumnValues(0, meta.map((m) => m.customer_id));
      chunk.setColumnValues(1, meta.map((m) => m.client_id));
      chunk.setColumnValues(2, slice.map((r) => r.rangeMonths));
      chunk.setColumnValuesConverted(3, meta.map((m) => utc(`${monthStartDate(m.month_from)}T00:00:00Z`)), JSToDuckDBValueConverter);
      chunk.setColumnValuesConverted(4, meta.map((m) => utc(`${monthStartDate(m.month_to)}T00:00:00Z`)), JSToDuckDBValueConverter);
      chunk.setColumnValues(5, meta.map((m) => m.currency));
      chunk.setColumnValuesConverted(6, meta.map((m) => utc(m.generated_at)), JSToDuckDBValueConverter);
      chunk.setColumnValues(7, meta.map((m) => m.generator.version));
      chunk.setColumnValues(8, slice.map((r) => r.part));
      chunk.setColumnValues(9, slice.map((r) => r.text));
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/** Saves the reports in one transaction: a customer's ranges change together. */
export async function saveReports(store: Store, reports: readonly ArchivedReport[]): Promise<SavedReports> {
  if (reports.length === 0) return { stored: 0, refused: [] };
  return store.write(async (conn) => {
    const refused = await deletedSinceRead(conn, reports);
    const kept = refused.size === 0 ? reports : reports.filter((r) => !refused.has(reportKey(customerOf(r))));
    for (let i = 0; i < kept.length; i += BATCH) {
      const batch = kept.slice(i, i + BATCH);
      const keys = JSON.stringify(batch.map(keyOf));
      await runScript(conn, 'queries/reports/delete-replaced', { keys });
      await appendReports(conn, batch);
      // The insights go beside, in the same transaction: a data team reads them without parsing reports.
      await runScript(conn, 'queries/reports/save-insights', { insights: JSON.stringify(batch.map(insightsRow)) });
    }
    return { stored: kept.length, refused: [...refused.values()] };
  });
}

const customerOf = ({ report }: ArchivedReport): CustomerRef => ({ clientId: report.metadata.client_id, customerId: report.metadata.customer_id });

/** The customers of reports read with a deletion mark whose mark has changed since (keyed by reportKey), read on the writer. */
async function deletedSinceRead(conn: DuckDBConnection, reports: readonly ArchivedReport[]): Promise<Map<string, CustomerRef>> {
  const marked = new Map<string, { customer: CustomerRef; mark: string | null }>();
  for (const r of reports) if (r.deletionMark !== undefined) marked.set(reportKey(customerOf(r)), { customer: customerOf(r), mark: r.deletionMark });
  const refused = new Map<string, CustomerRef>();
  if (marked.size === 0) return refused;
  const now = await readDeletionMarksOn(conn, [...marked.values()].map((m) => m.customer));
  for (const [key, { customer, mark }] of marked) if ((now.get(key) ?? null) !== mark) refused.set(key, customer);
  return refused;
}
