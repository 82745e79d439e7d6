import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subtract } from '../../src/domain/money.js';
import type { InsightsData } from '../../src/reports/insights-model.js';
import { authHeaders, followLink, type ApiHarness } from '../helpers/api.js';
import { insightsOf, startApiWith, transactionEvents } from '../helpers/insight-events.js';

/**
 * A customer who connected a current account and a credit card, by hand,
 * over January to June 2025. The card's spending (300.00 a month, on the
 * card) is paid off from the current account (BARCLAYCARD, 300.00 on the
 * 26th, categorised as a credit card payment), and the card's account shows
 * each payment arriving two days later (PAYMENT RECEIVED, categorised as
 * credit card borrowing); June's, paid on the 29th, arrives on 1 July,
 * after the range. A
 * second card that is not connected (AMEX, 100.00 a month) is paid too.
 * Salary 2,000.00 a month.
 *
 * Counting the payments to the connected card as spending counted its
 * spending twice (700.00 a month, not 400.00), made them a commitment, and
 * its PAYMENT RECEIVED credits new borrowing.
 */
const CLIENT = 'client-card';
const CUSTOMER = 'cust-card';
const gbp = (value: string) => ({ value, currency: 'GBP' });

const make = transactionEvents('card', CLIENT, '2025-07-05T00:00:00Z');
const tx = (account: string, description: string, date: string, amount: string, direction: 'credit' | 'debit', l1: string, l2: string) =>
  make({ customer: CUSTOMER, account, description, date, amount, direction, l1, l2, confidence: '0.99' });
const account = (id: string, type: string) => ({
  event_id: `ev-card-acc-${id}`, type: 'account.upserted', occurred_at: '2025-07-05T00:00:00Z', client_id: CLIENT, customer_id: CUSTOMER,
  data: { account_id: id, currency: 'GBP', holder: { name: 'Sam Reed', relationship: 'account_holder' }, account_name: id, account_type: type, usage_type: 'personal', provider: 'Monzo', identifiers: {}, balances: [] },
});
const MONTHS = [1, 2, 3, 4, 5, 6];
const on = (month: number, day: number) => `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

describe("payments to the customer's own credit card", () => {
  let api: ApiHarness;
  let token: string;
  let headers: Record<string, string>;
  let data: InsightsData;

  beforeAll(async () => {
    const events: { customer_id: string }[] = [
      account('acc-cur', 'current'),
      account('acc-card', 'credit_card'),
      ...MONTHS.flatMap((m) => [
        tx('acc-cur', 'ACME LTD SALARY', on(m, 25), '2000.00', 'credit', 'income', 'salary'),
        tx('acc-card', 'TESCO STORES', on(m, 10), '300.00', 'debit', 'shopping', 'other_shopping'),
        tx('acc-cur', 'BARCLAYCARD', m === 6 ? on(6, 29) : on(m, 26), '300.00', 'debit', 'borrowing_and_loans', 'credit_cards'),
        tx('acc-card', 'PAYMENT RECEIVED THANK YOU', m === 6 ? '2025-07-01' : on(m, 28), '300.00', 'credit', 'borrowing_and_loans', 'credit_cards'),
        tx('acc-cur', 'AMEX', on(m, 15), '100.00', 'debit', 'borrowing_and_loans', 'credit_cards'),
      ]),
    ];
    // A second customer pays two cards the same 100.00 a day apart, BARCLAYCARD (connected: a Barclaycard account named
    // Credit Card) and AMEX CREDIT CARD (not connected), and the Barclaycard account shows one payment arriving, the day
    // after the second.
    const second = <T extends { customer_id: string }>(e: T): T => ({ ...e, customer_id: 'cust-card-2' });
    const barclaycard = second(account('acc-bc', 'credit_card'));
    Object.assign(barclaycard.data, { provider: 'Barclaycard', account_name: 'Credit Card' });
    events.push(
      second(account('acc-cur', 'current')),
      barclaycard,
      ...[1, 2, 3].flatMap((m) => [
        tx('acc-bc', 'TESCO STORES', on(m, 5), '100.00', 'debit', 'shopping', 'other_shopping'),
        tx('acc-cur', 'BARCLAYCARD', on(m, 10), '100.00', 'debit', 'borrowing_and_loans', 'credit_cards'),
        tx('acc-cur', 'AMEX CREDIT CARD', on(m, 11), '100.00', 'debit', 'borrowing_and_loans', 'credit_cards'),
        tx('acc-bc', 'PAYMENT RECEIVED THANK YOU', on(m, 12), '100.00', 'credit', 'borrowing_and_loans', 'credit_cards'),
      ].map(second)),
    );
    // A third pays its card 100.00 on 31 December and again on 1 January at 18:00; the card shows one arriving on
    // 1 January at 09:00: the December payment's (the nearest before it). January's payment is spending, in every
    // range that holds January and in its link, though a range from January does not hold the December payment.
    const third = <T extends { customer_id: string }>(e: T): T => ({ ...e, customer_id: 'cust-card-3' });
    const at = (e: ReturnType<typeof tx>, time: string) => ({ ...e, data: { ...e.data, date_time: time } });
    events.push(
      third(account('acc-cur', 'current')),
      third(account('acc-card', 'credit_card')),
      third(at(tx('acc-cur', 'BARCLAYCARD', '2024-12-31', '100.00', 'debit', 'borrowing_and_loans', 'credit_cards'), '2024-12-31T09:00:00Z')),
      third(at(tx('acc-cur', 'BARCLAYCARD', '2025-01-01', '100.00', 'debit', 'borrowing_and_loans', 'credit_cards'), '2025-01-01T18:00:00Z')),
      third(at(tx('acc-card', 'PAYMENT RECEIVED THANK YOU', '2025-01-01', '100.00', 'credit', 'borrowing_and_loans', 'credit_cards'), '2025-01-01T09:00:00Z')),
    );
    ({ api, token } = await startApiWith(CLIENT, events));
    headers = authHeaders(token, CLIENT, CUSTOMER);
    data = await insightsOf(api, token, CLIENT, CUSTOMER, '2025-01', '2025-06');
  });
  afterAll(async () => api.close());

  it('counts the card spending once, where it happened: 300.00 on the card and 100.00 to the other card, 400.00 a month', () => {
    expect(data.expenditure.total.overall_total).toEqual(gbp('2400.00'));
    expect(data.expenditure.total.monthly_totals.map((m) => [m.month, m.amount.value, m.transaction_count])).toEqual(MONTHS.map((m) => [`2025-0${m}`, '400.00', 2]));
    // 2,000.00 - 400.00 a month.
    expect(data.disposable_income.monthly_totals.map((m) => m.amount.value)).toEqual(MONTHS.map(() => '1600.00'));
  });

  it('keeps as a commitment only the card that is not connected', () => {
    expect(data.expenditure.commitments.map((c) => [c.kind, c.name, c.frequency, c.predicted_monthly.value, c.total.overall_total.value])).toEqual([
      ['credit_card', 'AMEX', 'monthly', '100.00', '600.00'],
    ]);
    expect(data.expenditure.fixed.predicted_monthly).toEqual(gbp('100.00'));
  });

  it('takes no payment onto the card for new borrowing', () => {
    const borrowing = data.risk_signals.find((s) => s.name === 'new_borrowing');
    expect([borrowing?.value, borrowing?.transaction_count, borrowing?.flagged]).toEqual(['0', 0, false]);
    expect(data.flags).not.toContain('new_borrowing');
  });

  it('links spending to exactly the card spending and the other card, and disposable income to its two links', async () => {
    expect(await followLink(api, data.expenditure.total._links.transactions, headers)).toEqual({ total: '2400.00', count: 12 });
    for (const m of data.disposable_income.monthly_totals) {
      const income = await followLink(api, m._links.income, headers);
      const spending = await followLink(api, m._links.expenditure, headers);
      expect(subtract(income.total, spending.total)).toBe(m.amount.value);
    }
  });

  it('counts the payments to the card as before when the card is not among the accounts asked for: all that shows of its spending', async () => {
    const current = await insightsOf(api, token, CLIENT, CUSTOMER, '2025-01', '2025-06', 'acc-cur');
    // 300.00 to Barclaycard and 100.00 to Amex a month.
    expect(current.expenditure.total.overall_total).toEqual(gbp('2400.00'));
    expect(current.expenditure.commitments.map((c) => [c.name, c.predicted_monthly.value])).toEqual([['BARCLAYCARD', '300.00'], ['AMEX', '100.00']]);
    expect(await followLink(api, current.expenditure.total._links.transactions, headers)).toEqual({ total: '2400.00', count: 12 });
  });

  it('takes one payment for each arriving on the card, the one naming the card: a payment of the same amount to another card stays spending', async () => {
    const second = await insightsOf(api, token, CLIENT, 'cust-card-2', '2025-01', '2025-03');
    // 100.00 on the card and 100.00 to Amex a month; AMEX CREDIT CARD, nearer the arrival than BARCLAYCARD, is not the
    // one it names (a word of the card account's name, Credit Card, is not a name).
    expect(second.expenditure.total.monthly_totals.map((m) => m.amount.value)).toEqual(['200.00', '200.00', '200.00']);
    expect(second.expenditure.commitments.map((c) => [c.name, c.predicted_monthly.value])).toEqual([['AMEX CREDIT CARD', '100.00']]);
  });

  it('picks the same payment for a card credit in every range, one that begins the day after the other payment included', async () => {
    const h = authHeaders(token, CLIENT, 'cust-card-3');
    for (const [from, to] of [['2024-12', '2025-01'], ['2025-01', '2025-01'], ['2025-01', '2025-03']]) {
      const d = await insightsOf(api, token, CLIENT, 'cust-card-3', from as string, to as string);
      const january = d.expenditure.total.monthly_totals.find((m) => m.month === '2025-01');
      expect([january?.amount.value, january?.transaction_count], `${from} to ${to}`).toEqual(['100.00', 1]);
      expect(await followLink(api, january?._links.transactions as string, h), `${from} to ${to}`).toEqual({ total: '100.00', count: 1 });
    }
  });
});
