import type { Store } from '../db/store.js';
import { assembleReport } from './report-assembler.js';
import type { AffordabilityReport, ReportRequest } from './report-model.js';
import { readReportRows, reportKey } from './report-repository.js';

/** One customer's report for one range; null when the customer does not exist. */
export async function buildReport(store: Store, request: ReportRequest, now: Date = new Date()): Promise<AffordabilityReport | null> {
  const rangeKey = 'requested';
  const byCustomer = await readReportRows(store, {
    customers: [request],
    ranges: [{ key: rangeKey, range: request.range }],
    accountIds: request.accountIds,
    currency: request.currency,
  });
  const rows = byCustomer.get(reportKey(request));
  if (!rows) return null;
  return assembleReport({ request, rows, rangeKey, generatedAt: now.toISOString() });
}
