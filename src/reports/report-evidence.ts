import { customerKey, type CustomerRef } from '../domain/customer-ref.js';
import { monthStartDate, type MonthRange } from '../domain/months.js';
import { readSnapshot } from '../db/read-snapshot.js';
import type { Columns } from '../db/rows.js';
import { queryFile } from '../db/script.js';
import type { Store } from '../db/store.js';
import type { RiskSignal } from './insights-model.js';
import { classifyTransactions } from './insights-repository.js';

/**
 * The transactions behind each risk signal, for the PDF's appendix. A
 * signal's link names the insight keys it selects (`insight=gambling`); the
 * appendix lists exactly the transactions that link lists, over the
 * report's range, so its total is the signal's amount.
 */

export interface EvidenceRow {
  client_id: string;
  customer_id: string;
  transaction_id: string;
  date: string;
  description: string;
  amount: string;
  direction: string;
  running_balance: string | null;
  keys: string[];
}

const COLUMNS: Columns<EvidenceRow> = {
  client_id: 'text', customer_id: 'text', transaction_id: 'text', date: 'text', description: 'text', amount: 'text',
  direction: 'text', running_balance: 'text', keys: 'list',
};

/** The insight keys a transactions link selects (its `insight` parameters). */
export function linkKeys(link: string | undefined): string[] {
  if (!link) return [];
  return new URLSearchParams(link.split('?')[1] ?? '').getAll('insight');
}

/** The keys of a signal's evidence: its transactions, and the fees of returned direct debits. */
export function signalKeys(signal: RiskSignal): { main: string[]; fees: string[] } {
  return { main: linkKeys(signal._links.transactions), fees: linkKeys(signal.detail?.fees?._links.transactions) };
}

export interface EvidenceScope {
  customers: readonly CustomerRef[];
  range: MonthRange;
  accountIds?: readonly string[];
  currency: string;
  keys: readonly string[];
}

/** Evidence rows per customer (keyed by customerKey), in date order. */
export async function readEvidence(store: Store, scope: EvidenceScope): Promise<Map<string, EvidenceRow[]>> {
  const byCustomer = new Map<string, EvidenceRow[]>();
  if (scope.keys.length === 0 || scope.customers.length === 0) return byCustomer;
  const rows = await readSnapshot(store, async (conn) => {
    await classifyTransactions(conn, { customers: scope.customers, ranges: [{ key: 'evidence', range: scope.range }], accountIds: scope.accountIds, currency: scope.currency });
    return queryFile<EvidenceRow>(conn, 'queries/reports/signal-evidence', {
      keys: JSON.stringify(scope.keys),
      month_from: monthStartDate(scope.range.from),
      month_to: monthStartDate(scope.range.to),
    }, COLUMNS);
  });
  for (const row of rows) {
    const key = customerKey(row.client_id, row.customer_id);
    let list = byCustomer.get(key);
    if (!list) byCustomer.set(key, (list = []));
    list.push(row);
  }
  return byCustomer;
}
