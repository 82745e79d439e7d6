import { firstInstant, lastInstant, type MonthRange } from './months.js';

/**
 * The one rule for a link from a figure to the transactions behind it, used
 * by the totals endpoints and by the affordability report alike, so that the
 * two always select transactions the same way: the whole months as
 * date_from/date_to instants, the bucket and category filters, the currency,
 * the insight keys of an insight figure, for one direction
 * credit_debit_indicator (a link without a direction
 * covers both), and the accounts when the figure is restricted to some.
 */
export const TRANSACTIONS_PATH = '/financial/v2/transactions';

export type Direction = 'credit' | 'debit';

export interface TransactionsLinkFilter {
  bucketId?: string;
  bucketL1?: string;
  bucketL2?: string;
  categoryL1?: string;
  categoryL2?: string;
  range: MonthRange;
  currency: string;
  direction?: Direction;
  accountIds?: readonly string[];
  /** Insight keys (any of them): the transactions an insight figure sums, as afford's insights classify them. */
  insights?: readonly string[];
}

export function transactionsLink(f: TransactionsLinkFilter): string {
  const q = new URLSearchParams();
  for (const key of f.insights ?? []) q.append('insight', key);
  if (f.bucketId !== undefined) q.set('bucket_id', f.bucketId);
  if (f.bucketL1 !== undefined) q.set('bucket_l1', f.bucketL1);
  if (f.bucketL2 !== undefined) q.set('bucket_l2', f.bucketL2);
  if (f.categoryL1 !== undefined) q.set('category_l1', f.categoryL1);
  if (f.categoryL2 !== undefined) q.set('category_l2', f.categoryL2);
  q.set('date_from', firstInstant(f.range.from));
  q.set('date_to', lastInstant(f.range.to));
  q.set('currency', f.currency);
  if (f.direction !== undefined) q.set('credit_debit_indicator', f.direction);
  for (const id of f.accountIds ?? []) q.append('account_id', id);
  return `${TRANSACTIONS_PATH}?${q.toString()}`;
}
