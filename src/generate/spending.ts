import {
  AIRLINES, BOOKMAKERS, CAT, CLOTHING, COFFEE, EATING_OUT, ELECTRONICS, EURO_MERCHANTS, GENERAL_SHOPS, PHARMACIES,
} from './catalogue.js';
import { dayAt, type Month } from './calendar.js';
import type { Ledger } from './ledger.js';

/** Discretionary spending, refunds, travel, and the movements between a customer's own accounts. */

function around(ledger: Ledger, typical: number): number {
  return Math.max(0, typical + ledger.rng.int(-2, 2));
}

function discretionary(ledger: Ledger, m: Month, i: number): void {
  const { rng, profile } = ledger;
  const { appetite } = profile;
  for (let n = around(ledger, appetite.eatingOut); n > 0; n--) {
    ledger.add({
      account: ledger.spendAccount(), at: ledger.shopAt(m), category: CAT.eatingOut, credit: false,
      pence: ledger.spend(4, 48), description: rng.pick(EATING_OUT),
    }, i);
  }
  for (let n = around(ledger, appetite.coffee); n > 0; n--) {
    ledger.add({
      account: profile.current, at: dayAt(m, rng.int(1, m.days), rng.int(7, 11), rng.int(0, 59)), category: CAT.coffee,
      credit: false, pence: ledger.spend(2.2, 5.8), description: rng.pick(COFFEE),
    }, i);
  }
  for (let n = around(ledger, appetite.shopping); n > 0; n--) {
    const kind = rng.next();
    const [category, merchant, min, max] =
      kind < 0.4 ? [CAT.clothing, rng.pick(CLOTHING), 8, 90] as const
        : kind < 0.75 ? [CAT.otherShopping, rng.pick(GENERAL_SHOPS), 3, 120] as const
          : kind < 0.95 ? [CAT.pharmacy, rng.pick(PHARMACIES), 2, 30] as const
            : [CAT.electronics, rng.pick(ELECTRONICS), 25, 650] as const;
    ledger.add({
      account: ledger.spendAccount(), at: ledger.shopAt(m), category, credit: false, pence: ledger.spend(min, max), description: merchant,
    }, i);
  }
  for (let n = around(ledger, appetite.cash) - 2 + rng.int(0, 2); n > 0; n--) {
    ledger.add({
      account: profile.current, at: ledger.shopAt(m), category: CAT.cash, credit: false, pence: Math.max(1, Math.round(rng.int(1, 10) * profile.scale)) * 1000,
      description: rng.pick(['CASH NOTEMACHINE', 'LINK ATM', `${profile.current.provider.toUpperCase()} ATM`]),
    }, i);
  }
  if (profile.gambler) gambling(ledger, m, i);
  // Now and then something goes back to the shop.
  if (rng.chance(0.3)) {
    ledger.add({
      account: ledger.spendAccount(), at: ledger.shopAt(m), category: CAT.refunds, credit: true, pence: ledger.spend(4, 85),
      description: `${rng.pick([...CLOTHING, ...GENERAL_SHOPS])} REFUND`, tags: ['refund'],
    });
  }
}

function gambling(ledger: Ledger, m: Month, i: number): void {
  const { rng, profile } = ledger;
  const house = rng.pick(BOOKMAKERS);
  for (let n = rng.int(3, 15); n > 0; n--) {
    ledger.add({
      account: profile.current, at: ledger.shopAt(m), category: CAT.gambling, credit: false,
      pence: rng.chance(0.7) ? Math.max(1, Math.round(rng.int(1, 10) * profile.scale)) * 500 : ledger.spend(2, 100), description: rng.chance(0.8) ? house : rng.pick(BOOKMAKERS),
      tags: ['gambling'],
    }, i);
  }
  for (let n = rng.int(0, 2); n > 0; n--) {
    ledger.add({
      account: profile.current, at: ledger.shopAt(m), category: CAT.gambling, credit: true, pence: rng.pence(10, 300),
      description: `${house} WITHDRAWAL`, tags: ['gambling'],
    });
  }
}

function travel(ledger: Ledger): void {
  const { rng, profile, months } = ledger;
  const tripIndex = profile.travelMonth;
  const trip = tripIndex === undefined ? undefined : months[tripIndex];
  if (tripIndex === undefined || !trip) return;
  const bookingIndex = Math.max(0, tripIndex - 1);
  const booking = months[bookingIndex] ?? trip;
  ledger.add({
    account: ledger.spendAccount(0.7), at: ledger.shopAt(booking), category: CAT.flights, credit: false,
    pence: ledger.spend(60, 420), description: rng.pick(AIRLINES), tags: ['travel'],
  }, bookingIndex);
  const startDay = rng.int(1, trip.days - 7);
  const account = ledger.spendAccount(0.8);
  for (let n = rng.int(3, 9); n > 0; n--) {
    const at = ledger.shopAt(trip, startDay + rng.int(0, 6));
    const pence = ledger.spend(4, 160);
    ledger.add({
      account, at, category: CAT.holiday, credit: false, pence, currency: 'EUR', description: rng.pick(EURO_MERCHANTS), tags: ['travel'],
    }, tripIndex);
    // Debit cards charge a non-sterling fee on each foreign payment.
    if (account.kind === 'current') {
      ledger.add({
        account, at: at + 1000, category: CAT.fxFees, credit: false, pence: Math.max(1, Math.round(pence * 0.86 * 0.0275)),
        description: 'NON-STERLING TRANSACTION FEE',
      });
    }
  }
}

function ownAccounts(ledger: Ledger): void {
  const { rng, profile, months } = ledger;
  const { current, savings, card, savingsPlan } = profile;
  months.forEach((m, i) => {
    if (savings && savingsPlan) {
      const at = ledger.debitAt(m, savingsPlan.day);
      ledger.transfer(current, savings, at, savingsPlan.pence, ledger.monthly(m, at, 'savings plan'));
    }
    if (savings && rng.chance(0.2)) {
      ledger.transfer(savings, current, ledger.shopAt(m), rng.pence(40, 700));
    }
    if (savings) {
      ledger.add({
        account: savings, at: dayAt(m, m.days, 23, 0), category: CAT.interest, credit: true,
        pence: Math.max(1, Math.round(savings.openingPence * rng.int(25, 40) / 12_000)), description: 'INTEREST PAID', tags: ['interest'],
      });
    }
    if (card) cardRepayment(ledger, m, i);
  });
}

/**
 * Pays last month's card statement from the current account: in full, or part
 * of it. The card is one of the customer's connected accounts, so both legs
 * are a transfer between own accounts; the spending itself was already
 * counted, by category, when it went on the card.
 */
function cardRepayment(ledger: Ledger, m: Month, i: number): void {
  const { rng, profile } = ledger;
  const card = profile.card;
  if (!card) return;
  const statement = i === 0 ? card.openingPence : (ledger.cardSpend[i - 1] ?? 0);
  if (statement <= 0) return;
  const pence = profile.paysCardInFull ? statement : Math.min(statement, Math.max(2500, Math.round(statement * rng.int(40, 100) / 100)));
  const at = ledger.debitAt(m, 20);
  ledger.add({
    account: profile.current, at, category: CAT.ownTransfer, credit: false, pence,
    description: `${card.provider.toUpperCase()} PAYMENT`, tags: ['regular-transaction'], regular: ledger.monthly(m, at, `${card.provider} payment`),
  });
  ledger.add({
    account: card, at, category: CAT.ownTransfer, credit: true, pence, description: 'PAYMENT RECEIVED - THANK YOU', tags: ['transfer'],
  });
}

export function addSpending(ledger: Ledger): void {
  ledger.months.forEach((m, i) => discretionary(ledger, m, i));
  travel(ledger);
  // Repayments follow the spend, because each settles the previous month's card statement.
  ownAccounts(ledger);
}
