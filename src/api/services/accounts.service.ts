import { isoFromDb } from '../../domain/timestamps.js';
import type { CustomerRef } from '../../domain/customer-ref.js';
import type { AccountsRepository, BalanceRow } from '../repositories/accounts.repository.js';
import type { AccountOut, AccountsQuery } from '../schemas/accounts.schemas.js';

type Parameters = Partial<Record<'currencies' | 'providers' | 'account_types' | 'usage_types' | 'holder_types', string[]>>;

export interface AccountsResult {
  accounts: AccountOut[];
  metadata: { parameters: Parameters; result_count: number };
}

/** Each filter's name in `metadata.parameters`, as the reference names them. */
const PARAMETER_NAMES: Record<keyof AccountsQuery, keyof Parameters> = {
  currency: 'currencies',
  provider: 'providers',
  account_type: 'account_types',
  usage_type: 'usage_types',
  holder_relationship_type: 'holder_types',
};

function balanceView(b: BalanceRow) {
  return {
    date: isoFromDb(b.date) ?? '',
    amount: { value: b.amount, currency: b.currency },
    type: b.type,
    credit_debit_indicator: b.credit_debit_indicator,
  };
}

export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async list(customer: CustomerRef, filters: AccountsQuery): Promise<AccountsResult> {
    const { accounts, balances } = await this.accounts.accountsWithBalances(customer, filters);
    const views: AccountOut[] = accounts.map((a) => ({
      account_id: a.account_id,
      currency: a.currency,
      holder: { name: a.holder_name, relationship: a.holder_relationship },
      account_name: a.account_name,
      account_type: a.account_type,
      usage_type: a.usage_type,
      provider: a.provider,
      identifiers: {
        ...(a.uk_account_number !== null ? { uk_account_number: a.uk_account_number } : {}),
        ...(a.uk_sort_code !== null ? { uk_sort_code: a.uk_sort_code } : {}),
      },
      balances: balances.filter((b) => b.account_id === a.account_id).map(balanceView),
    }));
    // Echo only the filters that were applied.
    const parameters: Parameters = {};
    for (const [name, values] of Object.entries(filters) as Array<[keyof AccountsQuery, string[] | undefined]>) {
      if (values !== undefined && values.length > 0) parameters[PARAMETER_NAMES[name]] = values;
    }
    return { accounts: views, metadata: { parameters, result_count: views.length } };
  }
}
