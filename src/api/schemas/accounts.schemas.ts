import { z } from 'zod';
import { isKnownCurrency, UNKNOWN_CURRENCY_MESSAGE } from '../../domain/currencies.js';
import { envelopeOf, listParam, moneyOut } from './common.js';

/** Currencies as the other calls take one, several allowed. */
const currencyList = listParam
  .refine((items) => items.every((c) => /^[A-Z]{3}$/.test(c)), 'must be 3-letter currency codes')
  .refine((items) => items.every(isKnownCurrency), UNKNOWN_CURRENCY_MESSAGE);

export const OP_ACCOUNTS_GET = 'financial_v2_accounts';

/** Every filter takes several values, repeated or as a comma list, as the reference's do: an account passes with any of them. */
export const accountsQuery = z.object({
  currency: currencyList.optional(),
  provider: listParam.optional(),
  account_type: listParam.optional(),
  usage_type: listParam.optional(),
  holder_relationship_type: listParam.optional(),
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

/** The filters applied, under the reference's names, each a list of the values given. */
export const accountsParameters = z.object({
  currencies: z.array(z.string()).optional(),
  providers: z.array(z.string()).optional(),
  account_types: z.array(z.string()).optional(),
  usage_types: z.array(z.string()).optional(),
  holder_types: z.array(z.string()).optional(),
});

export const accountsMetadata = z.object({
  parameters: accountsParameters,
  result_count: z.number().int().nonnegative(),
});

export const accountsResponse = envelopeOf(OP_ACCOUNTS_GET, z.array(accountOut), accountsMetadata);
