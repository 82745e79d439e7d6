import { mutate, type Json } from './json-mutate.js';

/**
 * Where and what to mutate in a transaction event, for the tests that hold
 * the fast path's checks to the schema: every field the checks read, and
 * values of every kind and edge.
 */
export const FIELDS: string[][] = [
  ['event_id'], ['type'], ['occurred_at'], ['client_id'], ['customer_id'], ['customer_secret'], ['data'],
  ['data', 'transaction_id'], ['data', 'account_id'], ['data', 'provider'], ['data', 'description'], ['data', 'credit_debit_indicator'],
  ['data', 'amount'], ['data', 'amount', 'value'], ['data', 'amount', 'currency'], ['data', 'date_time'], ['data', 'status'],
  ['data', 'enrichments'], ['data', 'enrichments', 'categories'], ['data', 'enrichments', 'categories', 'l1'],
  ['data', 'enrichments', 'categories', 'l1', 'slug'], ['data', 'enrichments', 'categories', 'l2', 'confidence'],
  ['data', 'enrichments', 'regularity'], ['data', 'enrichments', 'regularity', 'frequency'],
  ['data', 'enrichments', 'regularity', 'predicted_date_times'], ['data', 'enrichments', 'regularity', 'group_label'],
  ['data', 'enrichments', 'merchant'], ['data', 'tags'], ['data', 'posted_date_time'], ['data', 'value_date_time'],
  ['data', 'merchant_category_code'], ['data', 'counterparty'], ['data', 'counterparty', 'name'], ['data', 'running_balance'],
  ['data', 'running_balance', 'value'], ['data', 'unknown_key'],
];

export const VALUES: unknown[] = [
  undefined, null, 0, 0.5, 1e21, true, '', 'x', 'x'.repeat(101), 'x'.repeat(201), 'x'.repeat(501), 'x'.repeat(1001), '\ud800', 'a\ud83d\ude00b',
  [], ['a'], [1], Array.from({ length: 51 }, () => 't'), {}, { value: '1.00', currency: 'GBP' }, { name: 'n' },
  ' x', 'x ', '\tx', 'x\ty', 'x\r\ny', 'x\u007f',
  '0.00', '0.01', '-1.00', '1e3', '12.345', '999999999.99', '1000000000.00', 'GBP', 'XYZ', 'gbp',
  'credit', 'debit', 'booked', 'declined', 'monthly', 'income', 'salary',
  '2024-02-30T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:00+25:00', '2024-01-01T10:00:00+01:00', '2024-01-01T10:00:00.123456789Z',
  '2024-01-01T10:00Z', '2024-01-01', '2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2000-02-29T23:59:59Z',
  '2024-04-31T00:00:00Z', '2024-12-31T23:59:60Z', '2024-00-10T00:00:00Z', '2024-13-10T00:00:00Z', '2024-01-00T00:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T0a:00:00Z', '2024-01-01 10:00:00Z', '+2024-01-01T10:00:00Z', '2024-1-01T10:00:00Z', '２０２４-01-01T10:00:00Z', '1969-12-31T23:59:59Z', '2101-01-01T00:00:00Z', '2999-01-01T00:00:00Z',
  ['2024-01-01T10:00:00+01:00'], ['not a date'],
];

/**
 * The events to mutate, from lines of transaction events: one with every
 * optional part (so that each path exists to mutate), a deletion, and the
 * first with a counterparty and a running balance added.
 */
export function mutationBases(transactionLines: readonly string[]): Json[] {
  const samples = transactionLines.flatMap((l) => {
    try {
      return [JSON.parse(l) as Json];
    } catch {
      return [];
    }
  });
  const full = samples.find((s) => JSON.stringify(s).includes('regularity'));
  const deleted = samples.find((s) => s.type === 'transaction.deleted');
  if (full === undefined || deleted === undefined) throw new Error('the lines hold no full transaction event or no deletion to mutate');
  return [full, deleted, mutate(mutate(full, ['data', 'counterparty'], { name: 'n', identifier: 'i' }), ['data', 'running_balance'], { value: '-5.00', currency: 'GBP' })];
}
