import type { Store } from '../db/store.js';
import { assembleReport } from './report-assembler.js';
import type { AffordabilityReport, ReportRequest } from './report-model.js';
import { readReportRows, reportKey } from './report-repository.js';
import type { InsightsData } from './insights-model.js';
import type { EvidenceRow } from './report-evidence.js';

/**
 * A report with the transactions behind it (transaction-refs.sql, read in the
 * same snapshot), its insights and the transactions behind its risk
 * signals: what a PDF needs.
 */
export interface ReportWithTransactions {
  report: AffordabilityReport;
  transactions: string;
  insights?: InsightsData;
  evidence?: EvidenceRow[];
}

const RANGE_KEY = 'requested';

async function build(store: Store, request: ReportRequest, now: Date, withTransactions: boolean): Promise<ReportWithTransactions | null> {
  const byCustomer = await readReportRows(store, {
    customers: [request],
    ranges: [{ key: RANGE_KEY, range: request.range }],
    accountIds: request.accountIds,
    currency: request.currency,
    refsRange: withTransactions ? RANGE_KEY : undefined,
  });
  const rows = byCustomer.get(reportKey(request));
  if (!rows) return null;
  const report = assembleReport({ request, rows, rangeKey: RANGE_KEY, generatedAt: now.toISOString() });
  return { report, transactions: rows.transactionRefs ?? '[]', insights: report.data.insights, evidence: rows.evidence ?? [] };
}

/** One customer's report for one range; null when the customer does not exist. */
export async function buildReport(store: Store, request: ReportRequest, now: Date = new Date()): Promise<AffordabilityReport | null> {
  return (await build(store, request, now, false))?.report ?? null;
}

/** The report, its insights and the transactions behind them, for a PDF or for verifying one; null when the customer does not exist. */
export async function buildReportWithTransactions(store: Store, request: ReportRequest, now: Date = new Date()): Promise<ReportWithTransactions | null> {
  return build(store, request, now, true);
}
