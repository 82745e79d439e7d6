import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RiskSignal } from '../../src/reports/insights-model.js';
import type { ApiHarness } from '../helpers/api.js';
import { insightsOf, startApiWith, transactionEvents } from '../helpers/insight-events.js';

/**
 * An account overdrawn from December into January, by hand, asked about for
 * January to March 2025. Its running balances:
 *   1 Dec: +250.00 (salary), 20 Dec: -150.00 (a 400.00 bill);
 *   10 Jan: +1,850.00 (salary of 2,000.00);
 *   15 Feb: -150.00 (a 2,000.00 payment), 20 Feb: +50.00 (200.00 in).
 * So it is overdrawn on 1 to 9 January (9 days, at -150.00, carried from
 * December) and 15 to 19 February (5 days): 14 days, the deepest -150.00.
 * Reading only the range's transactions, January began unknown, and the
 * count was 5. A second customer's account, in credit as December ends
 * (+100.00), has no day of January in overdraft; a third's, overdrawn
 * from 28 January to 12 February, asked about from February, begins
 * February overdrawn.
 */
const CLIENT = 'client-od';
const gbp = (value: string) => ({ value, currency: 'GBP' });

const make = transactionEvents('od', CLIENT, '2025-04-02T00:00:00Z');
/** A payment in or out of the current account, and its running balance after it: salary in, other spending out unless given. */
const tx = (customer: string, date: string, amount: string, direction: 'credit' | 'debit', balance: string, l1 = 'general', l2 = 'other_general') =>
  direction === 'credit'
    ? make({ customer, account: 'acc-cur', description: 'ACME LTD SALARY', date, amount, direction, l1: 'income', l2: 'salary', balance })
    : make({ customer, account: 'acc-cur', description: 'PAYMENT', date, amount, direction, l1, l2, balance });

describe('days in overdraft carried into the range', () => {
  let api: ApiHarness;
  let token: string;
  const overdraft = async (customer: string, from = '2025-01', to = '2025-03'): Promise<RiskSignal | undefined> => {
    return (await insightsOf(api, token, CLIENT, customer, from, to)).risk_signals.find((s) => s.name === 'days_in_overdraft');
  };

  beforeAll(async () => {
    const events = [
      tx('cust-od', '2024-12-01', '250.00', 'credit', '250.00'),
      tx('cust-od', '2024-12-20', '400.00', 'debit', '-150.00'),
      tx('cust-od', '2025-01-10', '2000.00', 'credit', '1850.00'),
      tx('cust-od', '2025-02-15', '2000.00', 'debit', '-150.00'),
      tx('cust-od', '2025-02-20', '200.00', 'credit', '50.00'),
      tx('cust-in-credit', '2024-12-20', '400.00', 'debit', '100.00'),
      tx('cust-in-credit', '2025-01-10', '2000.00', 'credit', '2100.00'),
      tx('cust-od-feb', '2025-01-05', '2000.00', 'credit', '2000.00'),
      tx('cust-od-feb', '2025-01-28', '2080.00', 'debit', '-80.00'),
      tx('cust-od-feb', '2025-02-12', '2000.00', 'credit', '1920.00'),
      // An account last seen overdrawn long before (closed, or its feed stopped), beside one in credit all along.
      { ...tx('cust-stale', '2023-05-01', '20.00', 'debit', '-20.00'), data: { ...tx('cust-stale', '2023-05-01', '20.00', 'debit', '-20.00').data, account_id: 'acc-old' } },
      tx('cust-stale', '2025-01-10', '2000.00', 'credit', '2000.00'),
      // Overdrawn since November, two months before the range: too old a balance to begin January with.
      tx('cust-november', '2024-11-20', '400.00', 'debit', '-150.00'),
      tx('cust-november', '2025-01-10', '2000.00', 'credit', '1850.00'),
    ];
    ({ api, token } = await startApiWith(CLIENT, events));
  });
  afterAll(async () => api.close());

  it('counts the days of January before its first transaction at the balance December ended with: 9 + 5 = 14 days', async () => {
    const signal = await overdraft('cust-od');
    expect([signal?.value, signal?.flagged, signal?.detail?.deepest_balance]).toEqual(['14', true, gbp('-150.00')]);
  });

  it('counts none for an account in credit as the range begins', async () => {
    const signal = await overdraft('cust-in-credit');
    expect([signal?.value, signal?.flagged, signal?.detail?.deepest_balance]).toEqual(['0', false, gbp('100.00')]);
  });

  it('begins a range with the balance of the month before, as it does with December', async () => {
    // Overdrawn from 28 January (-80.00) to the salary of 12 February: asked about February to March, 1 to 11 February.
    const signal = await overdraft('cust-od-feb', '2025-02', '2025-03');
    expect([signal?.value, signal?.detail?.deepest_balance]).toEqual(['11', gbp('-80.00')]);
    // Asked about from January, the days of January count too: 28 January to 11 February.
    expect((await overdraft('cust-od-feb', '2025-01', '2025-03'))?.value).toBe('15');
    // In credit as February begins (+1,850.00 since 10 January): only 15 to 19 February.
    expect((await overdraft('cust-od', '2025-02', '2025-03'))?.value).toBe('5');
  });

  it('begins a range with no balance of an account with no transaction in it, nor with one older than the month before', async () => {
    expect(await overdraft('cust-stale').then((o) => [o?.value, o?.flagged, o?.detail?.deepest_balance])).toEqual(['0', false, gbp('2000.00')]);
    expect(await overdraft('cust-november').then((o) => [o?.value, o?.flagged, o?.detail?.deepest_balance])).toEqual(['0', false, gbp('1850.00')]);
  });
});
