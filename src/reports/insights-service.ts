import type { Store } from '../db/store.js';
import { customerKey } from '../domain/customer-ref.js';
import { assembleInsights } from './insights-assembler.js';
import type { AffordabilityInsights, InsightsRequest } from './insights-model.js';
import { readInsightRows } from './insights-repository.js';

/** One customer's insights for one range; null when the customer does not exist. */
export async function buildInsights(store: Store, request: InsightsRequest, now: Date = new Date()): Promise<AffordabilityInsights | null> {
  const rangeKey = 'requested';
  const byCustomer = await readInsightRows(store, {
    customers: [request],
    ranges: [{ key: rangeKey, range: request.range }],
    accountIds: request.accountIds,
    currency: request.currency,
  });
  const rows = byCustomer.get(customerKey(request.clientId, request.customerId));
  if (!rows) return null;
  return assembleInsights({ request, rows, rangeKey, generatedAt: now.toISOString() });
}
