import type { Category } from './catalogue.js';
import { CAT, FUEL, SUPERMARKETS, TAXIS, TRANSIT } from './catalogue.js';
import { DAY, dayAt, taxYear, type Month } from './calendar.js';
import type { Bill } from './customers.js';
import type { Ledger } from './ledger.js';
import { slug } from './ledger.js';

/** Essential spending: housing, council tax, utilities, food and getting about. */

const REGULAR = ['regular-transaction'] as const;
const NO_CTAX_MONTHS = new Set([2, 3]);

/** The TV licence fee per month in pence, by tax year (paid by monthly direct debit). */
function tvLicenceMonthly(year: number): number {
  return year >= 2025 ? 1454 : 1413;
}

function directDebit(ledger: Ledger, m: Month, bill: Bill, category: Category, pence = bill.pence): void {
  const at = ledger.debitAt(m, bill.day);
  ledger.add({
    account: ledger.profile.current, at, category, credit: false, pence, description: bill.payee,
    tags: REGULAR, regular: ledger.monthly(m, at, bill.payee),
  });
}

function monthlyBills(ledger: Ledger, m: Month, monthIndex: number): void {
  const { profile, rng } = ledger;
  if (profile.housing) {
    directDebit(ledger, m, profile.housing.bill, profile.housing.kind === 'rent' ? CAT.rent : CAT.mortgage);
  }
  // Council tax is collected in ten instalments, April to January; February and March are free.
  if (profile.councilTax && !NO_CTAX_MONTHS.has(m.month)) {
    const first = ledger.months[0];
    const rises = first ? taxYear(m) - taxYear(first) : 0;
    directDebit(ledger, m, profile.councilTax, CAT.councilTax, Math.round(profile.councilTax.pence * 1.049 ** rises));
  }
  // Energy suppliers review the direct debit now and then.
  const energyPence = monthIndex > 0 && rng.chance(0.08) ? rng.vary(profile.energy.pence, 0.2) : profile.energy.pence;
  directDebit(ledger, m, profile.energy, CAT.energy, energyPence);
  if (profile.water) directDebit(ledger, m, profile.water, CAT.water);
  for (const phone of profile.phones) directDebit(ledger, m, phone, CAT.phone);
  if (profile.tvLicenceDay !== undefined) {
    directDebit(ledger, m, { payee: 'TV LICENCE MBP', pence: 0, day: profile.tvLicenceDay }, CAT.tvLicence, tvLicenceMonthly(taxYear(m)));
  }
  if (profile.insurance) directDebit(ledger, m, profile.insurance, CAT.vehicleInsurance);
  if (profile.gym) directDebit(ledger, m, profile.gym, CAT.gym);
  for (const sub of profile.subscriptions) {
    const account = profile.card ?? profile.current;
    const at = ledger.shopAt(m, sub.day);
    ledger.add({
      account, at, category: CAT.subscriptions, credit: false, pence: sub.pence, description: sub.name,
      tags: ['regular-transaction', 'subscription'], regular: ledger.monthly(m, at, sub.name),
    }, monthIndex);
  }
}

function groceries(ledger: Ledger, m: Month, monthIndex: number): void {
  const { profile, rng } = ledger;
  const { grocer } = profile;
  const firstShopDay = 1 + ((grocer.weekday - new Date(m.start).getUTCDay() + 7) % 7);
  const label = slug(grocer.store);
  for (let day = firstShopDay; day <= m.days; day += 7) {
    const at = ledger.shopAt(m, day);
    ledger.add({
      account: ledger.spendAccount(0.3), at, category: CAT.groceries, credit: false, pence: rng.vary(grocer.weeklyPence, 0.25),
      description: `${grocer.store} ${grocer.storeNo}`, regular: { frequency: 'weekly', next: at + 7 * DAY, label },
    }, monthIndex);
  }
  const topUps = rng.int(1, 7);
  for (let i = 0; i < topUps; i++) {
    ledger.add({
      account: profile.current, at: ledger.shopAt(m), category: CAT.groceries, credit: false, pence: ledger.spend(2.5, 28),
      description: `${rng.pick(SUPERMARKETS)} ${rng.int(100, 9999)}`,
    }, monthIndex);
  }
}

function transport(ledger: Ledger, m: Month, monthIndex: number): void {
  const { profile, rng } = ledger;
  if (profile.drives) {
    const fills = rng.int(2, 5);
    for (let i = 0; i < fills; i++) {
      ledger.add({
        account: ledger.spendAccount(), at: ledger.shopAt(m), category: CAT.fuel, credit: false, pence: ledger.spend(30, 85, 0.3),
        description: `${rng.pick(FUEL)} ${rng.int(10, 999)}`,
      }, monthIndex);
    }
  } else {
    const journeys = rng.int(6, 20);
    for (let i = 0; i < journeys; i++) {
      const day = rng.int(1, m.days);
      ledger.add({
        account: profile.current, at: dayAt(m, day, rng.pick([7, 8, 17, 18, 22]), rng.int(0, 59)), category: CAT.publicTransport,
        credit: false, pence: ledger.spend(1.75, 14, 0.3), description: rng.pick(TRANSIT),
      }, monthIndex);
    }
  }
  if (rng.chance(0.35)) {
    ledger.add({
      account: ledger.spendAccount(), at: dayAt(m, rng.int(1, m.days), rng.int(19, 23), rng.int(0, 59)), category: CAT.taxi,
      credit: false, pence: ledger.spend(6, 38), description: rng.pick(TAXIS),
    }, monthIndex);
  }
}

export function addEssentials(ledger: Ledger): void {
  ledger.months.forEach((m, i) => {
    monthlyBills(ledger, m, i);
    groceries(ledger, m, i);
    transport(ledger, m, i);
  });
}
