import { listValue, type DuckDBValue } from '@duckdb/node-api';
import { queryFile } from '../../db/script.js';
import type { Store } from '../../db/store.js';
import type { Columns } from '../../db/rows.js';
import { readSnapshot } from '../../db/read-snapshot.js';
import { insightTransactionIds } from '../../reports/insights-repository.js';

/** Filters of the transaction list; undefined leaves a filter off. Instants are DuckDB TIMESTAMP text in UTC. */
export interface TransactionFilter {
  clientId: string;
  customerId: string;
  dateFrom?: string;
  dateToExclusive?: string;
  /** Any of these accounts. */
  accountIds?: string[];
  categoryL1?: string;
  categoryL2?: string;
  creditDebitIndicator?: string;
  currency?: string;
  /** Any of these statuses; undefined: everything but declined. */
  statuses?: string[];
  merchant?: string;
  includeTags?: string[];
  excludeTags?: string[];
  updatedAfter?: string;
  bucketId?: string;
  bucketL1?: string;
  bucketL2?: string;
  /** Insight keys: only the transactions afford's insights count towards any of them. */
  insights?: string[];
  after?: { dateTime: string; transactionId: string };
  limit: number;
}

export interface TransactionRow {
  transaction_id: string;
  account_id: string;
  provider: string;
  description: string;
  credit_debit_indicator: 'credit' | 'debit';
  amount: string;
  currency: string;
  date_time: string;
  status: 'booked' | 'pending' | 'declined';
  category_l1: string;
  category_l1_confidence: string | null;
  category_l2: string;
  category_l2_confidence: string | null;
  regularity: string | null;
  merchant: string | null;
  tags: string[];
  posted_date_time: string | null;
  value_date_time: string | null;
  merchant_category_code: string | null;
  counterparty_name: string | null;
  counterparty_identifier: string | null;
  running_balance: string | null;
  running_balance_currency: string | null;
}

const TRANSACTION_COLUMNS: Columns<TransactionRow> = {
  transaction_id: 'text', account_id: 'text', provider: 'text', description: 'text', credit_debit_indicator: 'text',
  amount: 'text', currency: 'text', date_time: 'text', status: 'text', category_l1: 'text', category_l1_confidence: 'text',
  category_l2: 'text', category_l2_confidence: 'text', regularity: 'text', merchant: 'text', tags: 'list',
  posted_date_time: 'text', value_date_time: 'text', merchant_category_code: 'text', counterparty_name: 'text',
  counterparty_identifier: 'text', running_balance: 'text', running_balance_currency: 'text',
};

const list = (values: string[] | undefined): DuckDBValue => (values && values.length > 0 ? listValue(values) : null);

export interface DeletedTransaction {
  transaction_id: string;
  updated_at: string;
}

export class TransactionsRepository {
  constructor(private readonly store: Store) {}

  /** The customer's transactions deleted after `updatedAfter` (store timestamp text), oldest first. */
  async deletedSince(clientId: string, customerId: string, updatedAfter: string): Promise<DeletedTransaction[]> {
    return this.store.read((conn) =>
      queryFile<DeletedTransaction>(
        conn,
        'queries/api/list-deleted-transactions',
        { client_id: clientId, customer_id: customerId, updated_after: updatedAfter },
        { transaction_id: 'text', updated_at: 'text' },
      ),
    );
  }

  async listPage(f: TransactionFilter): Promise<TransactionRow[]> {
    return readSnapshot(this.store, async (conn) => {
      // Classified in the same snapshot as the page is read, by the rules the insights use.
      const members = f.insights?.length ? await insightTransactionIds(conn, f, f.insights, f.accountIds) : undefined;
      if (members?.length === 0) return [];
      return queryFile<TransactionRow>(conn, 'queries/api/list-transactions', {
        client_id: f.clientId,
        customer_id: f.customerId,
        date_from: f.dateFrom ?? null,
        date_to_exclusive: f.dateToExclusive ?? null,
        account_ids: list(f.accountIds),
        category_l1: f.categoryL1 ?? null,
        category_l2: f.categoryL2 ?? null,
        credit_debit_indicator: f.creditDebitIndicator ?? null,
        currency: f.currency ?? null,
        statuses: list(f.statuses),
        merchant: f.merchant ?? null,
        include_tags: list(f.includeTags),
        exclude_tags: list(f.excludeTags),
        updated_after: f.updatedAfter ?? null,
        bucket_id: f.bucketId ?? null,
        bucket_l1: f.bucketL1 ?? null,
        bucket_l2: f.bucketL2 ?? null,
        transaction_ids: members ? listValue(members) : null,
        after_date_time: f.after?.dateTime ?? null,
        after_transaction_id: f.after?.transactionId ?? null,
        limit: f.limit,
      }, TRANSACTION_COLUMNS);
    });
  }
}
