import { customerKey, type CustomerRef } from '../domain/customer-ref.js';
import type { MonthRange } from '../domain/months.js';
import type { Store } from '../db/store.js';
import { assembleInsights } from './insights-assembler.js';
import type { InsightsData } from './insights-model.js';
import { readInsightRows } from './insights-repository.js';
import { readEvidence, signalKeys, type EvidenceRow } from './report-evidence.js';

/**
 * The insights and risk-signal evidence of many customers' PDFs at once:
 * the nightly job's chunk of hundreds of customers takes two set-based
 * passes, not two per customer.
 */
export async function pdfInsightsOf(
  store: Store,
  customers: readonly CustomerRef[],
  range: MonthRange,
  currency: string,
  generatedAt: string,
  accountIds?: readonly string[],
): Promise<Map<string, { insights: InsightsData; evidence: EvidenceRow[] }>> {
  const rangeKey = 'pdf';
  const rows = await readInsightRows(store, { customers, ranges: [{ key: rangeKey, range }], accountIds, currency });
  const insights = new Map<string, InsightsData>();
  for (const c of customers) {
    const key = customerKey(c.clientId, c.customerId);
    const mine = rows.get(key);
    if (mine) insights.set(key, assembleInsights({ request: { ...c, range, currency, accountIds }, rows: mine, rangeKey, generatedAt }).data);
  }
  // Evidence only for the customers with a raised flag: classifying transactions is the costly part.
  const keys = new Set<string>();
  const flagged = customers.filter((c) => {
    const raised = insights.get(customerKey(c.clientId, c.customerId))?.risk_signals.filter((s) => s.flagged) ?? [];
    for (const s of raised) Object.values(signalKeys(s)).flat().forEach((k) => keys.add(k));
    return raised.length > 0;
  });
  const evidence = await readEvidence(store, { customers: flagged, range, accountIds, currency, keys: [...keys] });
  const out = new Map<string, { insights: InsightsData; evidence: EvidenceRow[] }>();
  for (const [key, data] of insights) out.set(key, { insights: data, evidence: evidence.get(key) ?? [] });
  return out;
}
