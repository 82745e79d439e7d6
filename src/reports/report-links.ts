import { CORE_DASHBOARD_ID } from '../domain/core-dashboard.js';
import type { MonthRange } from '../domain/months.js';
import { transactionsLink as buildLink } from '../domain/transactions-link.js';
import type { FigureSource } from './report-model.js';

/**
 * Links from report figures to the transaction list, built by the same rule
 * as the totals endpoints' links. Each one names the core-dashboard bucket,
 * the direction, the currency, the accounts and the whole months, so that
 * the list holds exactly the transactions the figure sums (declined ones are
 * left out of both).
 */
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
    link = buildLink({
      bucketId: CORE_DASHBOARD_ID,
      bucketL1: source.bucket_l1,
      bucketL2,
      range: scope.months,
      currency: scope.currency,
      direction: source.direction,
      accountIds: scope.accountIds,
    });
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, link);
  }
  return link;
}
