import { listValue, type DuckDBValue } from '@duckdb/node-api';
import { readSnapshot } from '../../db/read-snapshot.js';
import { queryFile } from '../../db/script.js';
import type { Store } from '../../db/store.js';
import type { CustomerRef } from '../../domain/customer-ref.js';
import type { Columns } from '../../db/rows.js';

/** Each filter: the values an account may have (any of them), or undefined for no filter. */
export interface AccountFilter {
  currency?: string[];
  provider?: string[];
  account_type?: string[];
  usage_type?: string[];
  holder_relationship_type?: string[];
}

const anyOf = (values: string[] | undefined): DuckDBValue => (values && values.length > 0 ? listValue(values) : null);

export interface AccountRow {
  account_id: string;
  currency: string;
  holder_name: string;
  holder_relationship: string;
  account_name: string;
  account_type: string;
  usage_type: string;
  provider: string;
  uk_account_number: string | null;
  uk_sort_code: string | null;
}

export interface BalanceRow {
  account_id: string;
  position: number;
  date: string;
  amount: string;
  currency: string;
  type: string;
  credit_debit_indicator: 'credit' | 'debit';
}

const ACCOUNT_COLUMNS: Columns<AccountRow> = {
  account_id: 'text', currency: 'text', holder_name: 'text', holder_relationship: 'text', account_name: 'text',
  account_type: 'text', usage_type: 'text', provider: 'text', uk_account_number: 'text', uk_sort_code: 'text',
};

const BALANCE_COLUMNS: Columns<BalanceRow> = {
  account_id: 'text', position: 'number', date: 'text', amount: 'text', currency: 'text', type: 'text', credit_debit_indicator: 'text',
};

export class AccountsRepository {
  constructor(private readonly store: Store) {}

  /** The customer's accounts that pass the filters, and all of the customer's balances, from one snapshot. */
  async accountsWithBalances(customer: CustomerRef, f: AccountFilter): Promise<{ accounts: AccountRow[]; balances: BalanceRow[] }> {
    const key = { client_id: customer.clientId, customer_id: customer.customerId };
    return readSnapshot(this.store, async (conn) => ({
      accounts: await queryFile<AccountRow>(conn, 'queries/api/list-accounts', {
        ...key,
        currencies: anyOf(f.currency),
        providers: anyOf(f.provider),
        account_types: anyOf(f.account_type),
        usage_types: anyOf(f.usage_type),
        holder_relationship_types: anyOf(f.holder_relationship_type),
      }, ACCOUNT_COLUMNS),
      balances: await queryFile<BalanceRow>(conn, 'queries/api/list-balances', key, BALANCE_COLUMNS),
    }));
  }
}
