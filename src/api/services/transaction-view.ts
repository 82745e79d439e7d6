import { isoFromDb } from '../../domain/timestamps.js';
import type { TransactionRow } from '../repositories/transactions.repository.js';
import type { TransactionOut } from '../schemas/transactions.schemas.js';

interface Regularity {
  frequency: string;
  predicted_date_times?: string[];
  group_label?: string;
}

function parseJson<T>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}

/**
 * The confidence given when none was stored (a transaction under the
 * fallback pair, or sent without one): the reference requires a confidence
 * on both levels, and nobody vouched for this category.
 */
export const UNKNOWN_CONFIDENCE = '0.00';

function slug(name: string, confidence: string | null): { slug: string; confidence: string } {
  return { slug: name, confidence: confidence ?? UNKNOWN_CONFIDENCE };
}

/** The merchant's display name when it has one, else the description as received. */
function suggestedDescription(merchant: Record<string, unknown> | undefined, description: string): string {
  const name = merchant?.['display_name'];
  return typeof name === 'string' && name.trim() !== '' ? name : description;
}

/** A stored transaction in the API's shape (docs/interface.md), with the optional fields of docs/compatibility.md when present. */
export function transactionView(row: TransactionRow): TransactionOut {
  const regularity = parseJson<Regularity>(row.regularity);
  const merchant = parseJson<Record<string, unknown>>(row.merchant);
  const out: TransactionOut = {
    transaction_id: row.transaction_id,
    account_id: row.account_id,
    provider: row.provider,
    description: row.description,
    credit_debit_indicator: row.credit_debit_indicator,
    amount: { value: row.amount, currency: row.currency },
    date_time: isoFromDb(row.date_time) ?? '',
    suggested_description: suggestedDescription(merchant, row.description),
    status: row.status,
    enrichments: {
      categories: { l1: slug(row.category_l1, row.category_l1_confidence), l2: slug(row.category_l2, row.category_l2_confidence) },
      ...(regularity
        ? {
            regularity: {
              frequency: regularity.frequency,
              predicted_date_times: regularity.predicted_date_times ?? [],
              ...(regularity.group_label !== undefined ? { group_label: regularity.group_label } : {}),
            },
          }
        : {}),
      ...(merchant ? { merchant } : {}),
    },
    tags: row.tags,
  };
  if (row.posted_date_time !== null) out.posted_date_time = isoFromDb(row.posted_date_time) ?? undefined;
  if (row.value_date_time !== null) out.value_date_time = isoFromDb(row.value_date_time) ?? undefined;
  if (row.merchant_category_code !== null) out.merchant_category_code = row.merchant_category_code;
  if (row.counterparty_name !== null || row.counterparty_identifier !== null) {
    out.counterparty = {
      ...(row.counterparty_name !== null ? { name: row.counterparty_name } : {}),
      ...(row.counterparty_identifier !== null ? { identifier: row.counterparty_identifier } : {}),
    };
  }
  if (row.running_balance !== null) out.running_balance = { value: row.running_balance, currency: row.running_balance_currency ?? row.currency };
  return out;
}
