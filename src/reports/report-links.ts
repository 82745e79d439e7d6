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

// Links name no customer, so the nightly run's 6,000 reports share a few hundred of them.
const cache = new Map<string, string>();
const CACHE_LIMIT = 20_000;

export function transactionsLink(source: FigureSource, scope: LinkScope, bucketL2?: string): string {
  const key = [source.bucket_l1, source.direction, bucketL2 ?? '', scope.months.from, scope.months.to, scope.currency, ...(scope.accountIds ?? [])].join('\u0000');
  let link = cache.get(key);
  if (link === undefined) {
    link = buildLink(source, scope, bucketL2);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, link);
  }
  return link;
}

function buildLink(source: FigureSource, scope: LinkScope, bucketL2?: string): string {
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
