import { monthStartDate, type MonthRange } from '../../domain/months.js';
import { queryFile } from '../../db/script.js';
import type { Store } from '../../db/store.js';
import type { CustomerRef } from '../../domain/customer-ref.js';

/** One row of the monthly totals, already mapped onto a bucket pair. */
export interface TotalsCell {
  bucket_l1: string;
  bucket_l2: string;
  month: string;
  direction: 'credit' | 'debit';
  total: string;
  transaction_count: number;
}

export interface CategoryMonthRow {
  month: string;
  currency: string;
  category_l1: string;
  category_l2: string;
  direction: 'credit' | 'debit';
  total: string;
  transaction_count: number;
}

/** Reads monthly_category_totals: the figures every total is built from. */
export class MonthlyTotalsRepository {
  constructor(private readonly store: Store) {}

  /** The customer's totals for the pairs a definition maps, by bucket pair, month and direction. */
  async bucketCells(bucketId: string, customer: CustomerRef, currency: string, range: MonthRange): Promise<TotalsCell[]> {
    return this.store.read((conn) =>
      queryFile<TotalsCell>(conn, 'queries/api/bucket-monthly-totals', {
        bucket_id: bucketId,
        client_id: customer.clientId,
        customer_id: customer.customerId,
        currency,
        month_from: monthStartDate(range.from),
        month_to: monthStartDate(range.to),
      }, { bucket_l1: 'text', bucket_l2: 'text', month: 'text', direction: 'text', total: 'text', transaction_count: 'number' }),
    );
  }

  /** The customer's totals by month, currency, category pair and direction. */
  async categoryMonths(customer: CustomerRef, range: MonthRange, currency: string | undefined, accountId: string | undefined): Promise<CategoryMonthRow[]> {
    return this.store.read((conn) =>
      queryFile<CategoryMonthRow>(conn, 'queries/api/category-monthly-totals', {
        client_id: customer.clientId,
        customer_id: customer.customerId,
        month_from: monthStartDate(range.from),
        month_to: monthStartDate(range.to),
        currency: currency ?? null,
        account_id: accountId ?? null,
      }, { month: 'text', currency: 'text', category_l1: 'text', category_l2: 'text', direction: 'text', total: 'text', transaction_count: 'number' }),
    );
  }
}
