import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/domain/events.js';
import { generateEvents } from '../../src/generate/index.js';
import { quickTransactionEvent } from '../../src/ingest/fast-event.js';
import { HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { mutate, type Json } from '../helpers/json-mutate.js';


const lines = [...generateEvents({ customers: 12, months: 4, seed: 11, faults: true, endMonth: '2024-04' })].map((l) => l.trimEnd());
const transactionLines = lines.filter((l) => l.includes('"type":"transaction.'));

/** What the schema says of a line: the event it returns, or undefined for a reject. */
function schema(raw: string): unknown {
  const parsed = parseEvent(raw);
  return parsed.ok ? parsed.event : undefined;
}

const FIELDS: string[][] = [
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

const VALUES: unknown[] = [
  undefined, null, 0, 0.5, 1e21, true, '', 'x', 'x'.repeat(101), 'x'.repeat(201), 'x'.repeat(501), 'x'.repeat(1001), '\ud800', 'a\ud83d\ude00b',
  [], ['a'], [1], Array.from({ length: 51 }, () => 't'), {}, { value: '1.00', currency: 'GBP' }, { name: 'n' },
  '0.00', '0.01', '-1.00', '1e3', '12.345', '999999999.99', '1000000000.00', 'GBP', 'XYZ', 'gbp',
  'credit', 'debit', 'booked', 'declined', 'monthly', 'income', 'salary',
  '2024-02-30T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:00+25:00', '2024-01-01T10:00:00+01:00', '2024-01-01T10:00:00.123456789Z',
  '2024-01-01T10:00Z', '2024-01-01', '2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2000-02-29T23:59:59Z',
  '2024-04-31T00:00:00Z', '2024-12-31T23:59:60Z', '2024-00-10T00:00:00Z', '2024-13-10T00:00:00Z', '2024-01-00T00:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T0a:00:00Z', '2024-01-01 10:00:00Z', '+2024-01-01T10:00:00Z', '2024-1-01T10:00:00Z', '２０２４-01-01T10:00:00Z', '1969-12-31T23:59:59Z', '2101-01-01T00:00:00Z', '2999-01-01T00:00:00Z',
  ['2024-01-01T10:00:00+01:00'], ['not a date'],
];

describe('the quick check of transaction events', () => {
  it('takes most generated transaction events, each exactly as the schema returns it', () => {
    let taken = 0;
    for (const raw of transactionLines) {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        continue;
      }
      const quick = quickTransactionEvent(json);
      if (quick === undefined) continue;
      taken++;
      const expected = schema(raw);
      expect(quick).toEqual(expected);
      expect(JSON.stringify(quick)).toBe(JSON.stringify(expected));
    }
    expect(taken).toBeGreaterThan(transactionLines.length * 0.9);
  });

  it('takes no event the schema rejects, and returns what the schema returns for every mutation of a field', () => {
    const samples = transactionLines.flatMap((l) => {
      try {
        return [JSON.parse(l) as Json];
      } catch {
        return [];
      }
    });
    // A sample with every optional part, so that each path exists to mutate.
    const full = samples.find((s) => JSON.stringify(s).includes('regularity')) as Json;
    const deleted = samples.find((s) => s.type === 'transaction.deleted') as Json;
    expect(full).toBeDefined();
    expect(deleted).toBeDefined();
    const bases = [full, deleted, mutate(mutate(full, ['data', 'counterparty'], { name: 'n', identifier: 'i' }), ['data', 'running_balance'], { value: '-5.00', currency: 'GBP' })];
    let checked = 0;
    for (const base of bases) {
      for (const path of FIELDS) {
        for (const value of VALUES) {
          const json = mutate(base, path, value);
          const quick = quickTransactionEvent(json);
          if (quick === undefined) continue;
          checked++;
          const expected = schema(JSON.stringify(json));
          expect(expected, `${path.join('.')} = ${JSON.stringify(value)}`).toBeDefined();
          expect(JSON.stringify(quick), `${path.join('.')} = ${JSON.stringify(value)}`).toBe(JSON.stringify(expected));
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('gives the answer of the schema for every hostile line it takes', () => {
    for (const line of HOSTILE_LINES) {
      const raw = line.bytes.toString('utf8').trimEnd();
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        continue;
      }
      const quick = quickTransactionEvent(json);
      if (quick === undefined) continue;
      expect(JSON.stringify(quick), line.name).toBe(JSON.stringify(schema(raw)));
    }
  });

  it('leaves numbers JSON text can hold but the schema refuses to the schema (a confidence of 1e400 parses to Infinity)', () => {
    const line = transactionLines.find((l) => l.includes('"confidence":"0.95"')) as string;
    const raw = line.replace('"confidence":"0.95"', '"confidence":1e400');
    expect(quickTransactionEvent(JSON.parse(raw))).toBeUndefined();
    expect(schema(raw)).toBeUndefined();
  });
});
