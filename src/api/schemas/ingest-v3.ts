import { z } from 'zod';
import { transactionSchema, type TransactionData } from '../../domain/events.js';
import { fallbackCategories } from '../../domain/fallback-category.js';
import { messageFor } from '../issue-messages.js';

/**
 * Transactions of a first-party ingestion body, turned into the fields of a
 * `transaction.upserted` event and checked by the event's own schema, so
 * that HTTP ingestion accepts exactly what Kafka and files accept.
 */

type Json = Record<string, unknown>;
const record = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);

/** The currency of a v3 transaction that names none: afford's home currency, as in every other default. */
export const V3_DEFAULT_CURRENCY = 'GBP';

/** A transaction without categories gets the fallback pair; one with categories keeps them as sent. */
function withCategories(t: Json): Json {
  const enrichments = record(t['enrichments']);
  if (enrichments?.['categories'] !== undefined) return t;
  return { ...t, enrichments: { ...(enrichments ?? {}), categories: fallbackCategories() } };
}

/** "-12.30" -> debit 12.30; "12.30" -> credit 12.30. Anything else passes as it is, for the event schema to refuse. */
function splitSigned(amount: unknown): { indicator: 'credit' | 'debit'; value: unknown } {
  if (typeof amount === 'string' && amount.startsWith('-')) return { indicator: 'debit', value: amount.slice(1) };
  return { indicator: 'credit', value: amount };
}

/**
 * The reference's v3 transaction (a signed amount string, a separate
 * currency, no categories, the merchant's name) in afford's event fields.
 * Fields afford does not keep (country_code, transaction_type,
 * client_attributes, suggested_description) are dropped.
 */
function fromV3(t: Json): Json {
  const { indicator, value } = splitSigned(t['amount']);
  const currency = t['currency'] ?? V3_DEFAULT_CURRENCY;
  const out: Json = {
    transaction_id: t['transaction_id'],
    account_id: t['account_id'],
    description: t['description'],
    credit_debit_indicator: indicator,
    amount: { value, currency },
    date_time: t['date_time'],
    enrichments: { categories: fallbackCategories(), ...(t['merchant_name'] !== undefined ? { merchant: { display_name: t['merchant_name'] } } : {}) },
  };
  for (const key of ['provider', 'status', 'value_date_time', 'merchant_category_code', 'counterparty'] as const) {
    if (t[key] !== undefined) out[key] = t[key];
  }
  if (t['running_balance'] !== undefined) out['running_balance'] = { value: t['running_balance'], currency };
  return out;
}

/** Where a problem found in the event fields lies in the v3 transaction the client sent. */
function v3Path(path: readonly PropertyKey[]): PropertyKey[] {
  const [head, next] = path;
  if (head === 'amount') return [next === 'currency' ? 'currency' : 'amount'];
  if (head === 'credit_debit_indicator') return ['amount'];
  if (head === 'running_balance') return [next === 'currency' ? 'currency' : 'running_balance'];
  if (head === 'enrichments' && next === 'merchant') return ['merchant_name'];
  return [...path];
}

function checked(toEvent: (t: Json) => Json, pathOf: (p: readonly PropertyKey[]) => PropertyKey[]) {
  return z.unknown().transform((input, ctx): TransactionData => {
    const t = record(input);
    if (!t) {
      ctx.addIssue({ code: 'custom', message: 'must be a valid object' });
      return z.NEVER;
    }
    const parsed = transactionSchema.safeParse(toEvent(t), { error: messageFor });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: pathOf(issue.path), message: issue.message });
    return z.NEVER;
  });
}

/** afford's own transaction (application/json, and the reference's v2 type), categories optional. */
export const nativeTransaction = checked(withCategories, (p) => [...p]);
/** The reference's v3 transaction (application/bud-transaction-v3+json). */
export const v3Transaction = checked(fromV3, v3Path);
