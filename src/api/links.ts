import { firstInstant, lastInstant, type MonthRange } from '../domain/months.js';

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
}

/**
 * The relative link to the transactions behind a figure: the whole-month
 * range as date_from/date_to, the currency, the bucket filters and, for one
 * direction, credit_debit_indicator. A group-level link leaves the direction
 * out, so it covers both.
 */
export function transactionsLink(f: TransactionsLinkFilter): string {
  const q = new URLSearchParams();
  if (f.bucketId !== undefined) q.set('bucket_id', f.bucketId);
  if (f.bucketL1 !== undefined) q.set('bucket_l1', f.bucketL1);
  if (f.bucketL2 !== undefined) q.set('bucket_l2', f.bucketL2);
  if (f.categoryL1 !== undefined) q.set('category_l1', f.categoryL1);
  if (f.categoryL2 !== undefined) q.set('category_l2', f.categoryL2);
  q.set('date_from', firstInstant(f.range.from));
  q.set('date_to', lastInstant(f.range.to));
  q.set('currency', f.currency);
  if (f.direction !== undefined) q.set('credit_debit_indicator', f.direction);
  return `/financial/v2/transactions?${q.toString()}`;
}
