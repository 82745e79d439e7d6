import { z } from 'zod';
import { currencyParam, envelopeOf, moneyOut, queryString } from './common.js';

export const OP_ACCOUNTS_GET = 'financial_v2_accounts';

export const accountsQuery = z.object({
  currency: currencyParam.optional(),
  provider: queryString.optional(),
  account_type: queryString.optional(),
  usage_type: queryString.optional(),
  holder_relationship_type: queryString.optional(),
});

export type AccountsQuery = z.output<typeof accountsQuery>;

export const balanceOut = z.object({
  date: z.iso.datetime(),
  amount: moneyOut,
  type: z.string(),
  credit_debit_indicator: z.enum(['credit', 'debit']),
});

export const accountOut = z.object({
  account_id: z.string(),
  currency: z.string(),
  holder: z.object({ name: z.string(), relationship: z.string() }),
  account_name: z.string(),
  account_type: z.string(),
  usage_type: z.string(),
  provider: z.string(),
  identifiers: z.object({ uk_account_number: z.string().optional(), uk_sort_code: z.string().optional() }),
  balances: z.array(balanceOut),
});

export type AccountOut = z.infer<typeof accountOut>;

export const accountsMetadata = z.object({
  parameters: accountsQuery.partial(),
  result_count: z.number().int().nonnegative(),
});

export const accountsResponse = envelopeOf(OP_ACCOUNTS_GET, z.array(accountOut), accountsMetadata);
