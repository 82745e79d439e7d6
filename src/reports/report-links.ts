import { CORE_DASHBOARD_ID } from '../domain/core-dashboard.js';
import { lastDay, type MonthRange } from '../domain/months.js';
import type { FigureSource } from './report-model.js';

/**
 * Links from report figures to the transaction list. Each one names the
 * bucket, the direction, the currency, the accounts and the whole months, so
 * that the list holds exactly the transactions the figure sums (declined
 * ones are left out of both).
 */
export const TRANSACTIONS_PATH = '/financial/v2/transactions';

export interface LinkScope {
  months: MonthRange;
  currency: string;
  accountIds?: readonly string[];
}

export function transactionsLink(source: FigureSource, scope: LinkScope, bucketL2?: string): string {
  const params = new URLSearchParams();
  params.append('bucket_id', CORE_DASHBOARD_ID);
  params.append('bucket_l1', source.bucket_l1);
  if (bucketL2 !== undefined) params.append('bucket_l2', bucketL2);
  // Whole days in UTC: the list reads a bare date_to as the end of that day.
  params.append('date_from', `${scope.months.from}-01`);
  params.append('date_to', lastDay(scope.months.to));
  params.append('credit_debit_indicator', source.direction);
  params.append('currency', scope.currency);
  for (const id of scope.accountIds ?? []) params.append('account_id', id);
  return `${TRANSACTIONS_PATH}?${params.toString()}`;
}
