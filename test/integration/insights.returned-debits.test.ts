import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, followLink, type ApiHarness } from '../helpers/api.js';
import { insightsOf, startApiWith, transactionEvents } from '../helpers/insight-events.js';

/**
 * Direct debits returned unpaid, by hand, over January to June 2025: an
 * energy bill of 90.00 collected on the 20th; March's is returned the next
 * day (UNPAID DD, with a 25.00 fee) and presented again, and paid, on the
 * 25th; June's, collected on the 30th, is returned on 2 July. Money that
 * came back was never spent: counted, March's bill was spending twice and
 * June's spending that never left the account. A second customer's returns
 * name their payee, or not, beside debits of the same amount.
 */
const CLIENT = 'client-dd';
const CUSTOMER = 'cust-dd';
const gbp = (value: string) => ({ value, currency: 'GBP' });

const make = transactionEvents('dd', CLIENT, '2025-07-05T00:00:00Z');
const tx = (description: string, date: string, amount: string, direction: 'credit' | 'debit', l1: string, l2: string) =>
  make({ customer: CUSTOMER, description, date, amount, direction, l1, l2 });
const bill = (date: string) => tx('OCTOPUS ENERGY', date, '90.00', 'debit', 'utilities', 'utilities_energy');

describe('direct debits returned unpaid', () => {
  let api: ApiHarness;
  let token: string;
  let headers: Record<string, string>;
  const insights = (from: string, to: string, customer = CUSTOMER) => insightsOf(api, token, CLIENT, customer, from, to);

  beforeAll(async () => {
    const events: ReturnType<typeof tx>[] = [
      bill('2025-01-20'), bill('2025-02-20'), bill('2025-03-20'),
      tx('UNPAID DD OCTOPUS ENERGY', '2025-03-21', '90.00', 'credit', 'banking', 'unpaid_transactions'),
      tx('UNPAID ITEM FEE', '2025-03-21', '25.00', 'debit', 'banking', 'unpaid_transactions'),
      bill('2025-03-25'), bill('2025-04-20'), bill('2025-05-20'), bill('2025-06-30'),
      tx('UNPAID DD OCTOPUS ENERGY', '2025-07-02', '90.00', 'credit', 'banking', 'unpaid_transactions'),
    ];
    // Another customer: a card purchase of the same amount between a bill and its return; and two bills of 10.00 on
    // one day, both returned, one return naming its payee, the other not.
    const other = (e: ReturnType<typeof tx>) => ({ ...e, customer_id: 'cust-dd-2' });
    events.push(
      ...[bill('2025-02-20'), tx('CURRYS', '2025-02-21', '90.00', 'debit', 'shopping', 'electronics'),
        tx('UNPAID DD OCTOPUS ENERGY', '2025-02-21', '90.00', 'credit', 'banking', 'unpaid_transactions'),
        tx('ACME GYM', '2025-03-03', '10.00', 'debit', 'health_and_fitness', 'gym_and_fitness'),
        tx('PHONECO', '2025-03-03', '10.00', 'debit', 'utilities', 'phone_and_broadband'),
        tx('UNPAID DD PHONECO', '2025-03-05', '10.00', 'credit', 'banking', 'unpaid_transactions'),
        tx('RETURNED DIRECT DEBIT', '2025-03-05', '10.00', 'credit', 'banking', 'unpaid_transactions'),
        // A return that names no payee, after a bill and a purchase of the same amount: the bill is what came back.
        tx('ADMIRAL INSURANCE', '2025-03-20', '45.00', 'debit', 'insurance', 'vehicle_insurance'),
        tx('AMAZON', '2025-03-21', '45.00', 'debit', 'shopping', 'other_shopping'),
        tx('RETURNED DIRECT DEBIT', '2025-03-22', '45.00', 'credit', 'banking', 'unpaid_transactions')].map(other),
    );
    ({ api, token } = await startApiWith(CLIENT, events));
    headers = authHeaders(token, CLIENT, CUSTOMER);
  });
  afterAll(async () => api.close());

  it('counts each bill once, as it was paid, and the fee: 5 x 90.00 + 25.00 = 475.00', async () => {
    const data = await insights('2025-01', '2025-06');
    expect(data.expenditure.total.overall_total).toEqual(gbp('475.00'));
    expect(data.expenditure.total.monthly_totals.map((m) => [m.month, m.amount.value, m.transaction_count])).toEqual([
      ['2025-01', '90.00', 1], ['2025-02', '90.00', 1], ['2025-03', '115.00', 2], ['2025-04', '90.00', 1], ['2025-05', '90.00', 1], ['2025-06', '0.00', 0],
    ]);
    expect(await followLink(api, data.expenditure.total._links.transactions, headers)).toEqual({ total: '475.00', count: 6 });
  });

  it('keeps the bill a monthly commitment of 90.00, from the payments that were made', async () => {
    const data = await insights('2025-01', '2025-06');
    expect(data.expenditure.commitments.map((c) => [c.name, c.frequency, c.predicted_monthly.value, c.total.overall_total.value, c.total.transaction_count])).toEqual([
      ['OCTOPUS ENERGY', 'monthly', '90.00', '450.00', 5],
    ]);
    // The return is still a signal, with its fee.
    const returned = data.risk_signals.find((s) => s.name === 'returned_direct_debits');
    expect([returned?.value, returned?.flagged, returned?.detail?.fees?.amount]).toEqual(['1', true, gbp('25.00')]);
  });

  it("reads June alike whichever months are asked for: its bill came back in July", async () => {
    for (const [from, to] of [['2025-06', '2025-06'], ['2025-04', '2025-06'], ['2025-06', '2025-07']]) {
      const data = await insights(from as string, to as string);
      expect(data.expenditure.total.monthly_totals.find((m) => m.month === '2025-06')?.amount, `${from} to ${to}`).toEqual(gbp('0.00'));
    }
  });

  it('gives back the debit the return names, not a purchase of the same amount, and one debit for each return', async () => {
    // CURRYS (21 February, after the bill) is the latest debit of 90.00 before the return, but the return names OCTOPUS
    // ENERGY; of the two bills of 10.00 both returned, PHONECO's return names it and the other takes ACME GYM.
    // The unnamed return of 45.00 gives back the insurance bill, not the later purchase.
    const data = await insights('2025-02', '2025-03', 'cust-dd-2');
    expect(data.expenditure.total.overall_total).toEqual(gbp('135.00'));
    expect(data.expenditure.flexible.total.overall_total).toEqual(gbp('135.00'));
    expect(data.expenditure.commitments).toEqual([]);
    expect(await followLink(api, data.expenditure.total._links.transactions, authHeaders(token, CLIENT, 'cust-dd-2'))).toEqual({ total: '135.00', count: 2 });
  });
});
