import type { Bank, Subscription } from './catalogue.js';
import {
  BANKS, CARD_ISSUERS, COUNCILS, EMPLOYERS, ENERGY, FIRST_NAMES, GIG_PLATFORMS, GYMS, INSURERS, LANDLORDS, LAST_NAMES,
  LENDERS, PHONE, SUBSCRIPTIONS, SUPERMARKETS, WATER,
} from './catalogue.js';
import type { Rng } from './prng.js';

/** Who a synthetic customer is and how they live: everything the monthly transactions are drawn from. */

export type AccountKind = 'current' | 'savings' | 'credit_card';

export interface AccountProfile {
  readonly id: string;
  readonly kind: AccountKind;
  readonly provider: string;
  readonly name: string;
  readonly number: string;
  readonly sortCode: string;
  /** Balance before the first generated month: positive is money held, or for a card money owed. */
  readonly openingPence: number;
}

export interface Bill {
  readonly payee: string;
  readonly pence: number;
  readonly day: number;
}

export type IncomeKind = 'salary_monthly' | 'salary_four_weekly' | 'benefits' | 'gig';

export interface Profile {
  readonly index: number;
  readonly customerId: string;
  /** Prefix of the customer's record ids, e.g. `c000123`. */
  readonly short: string;
  readonly clientId: string;
  readonly secret: string | undefined;
  readonly firstName: string;
  readonly lastName: string;
  readonly accounts: readonly AccountProfile[];
  readonly current: AccountProfile;
  readonly savings: AccountProfile | undefined;
  readonly card: AccountProfile | undefined;
  readonly income: { readonly kind: IncomeKind; readonly source: string; readonly pence: number; readonly day: number };
  readonly children: number;
  readonly housing: { readonly kind: 'rent' | 'mortgage'; readonly bill: Bill } | undefined;
  readonly councilTax: Bill | undefined;
  readonly energy: Bill;
  readonly water: Bill | undefined;
  readonly phones: readonly Bill[];
  readonly tvLicenceDay: number | undefined;
  readonly insurance: Bill | undefined;
  readonly gym: Bill | undefined;
  readonly subscriptions: ReadonlyArray<Subscription & { readonly day: number }>;
  readonly grocer: { readonly store: string; readonly storeNo: number; readonly weekday: number; readonly weeklyPence: number };
  readonly drives: boolean;
  readonly appetite: { readonly eatingOut: number; readonly coffee: number; readonly shopping: number; readonly cash: number };
  readonly gambler: boolean;
  readonly savingsPlan: Bill | undefined;
  /** Sizes discretionary amounts to what is left of income after fixed costs. */
  readonly scale: number;
  readonly paysCardInFull: boolean;
  readonly travelMonth: number | undefined; // index into the period's months
  readonly hasApplication: boolean;
}

function pad(n: number, width = 6): string {
  return String(n).padStart(width, '0');
}

function sortCode(rng: Rng, bank: Bank): string {
  return `${bank.sortPrefix}-${pad(rng.int(0, 99), 2)}-${pad(rng.int(0, 99), 2)}`;
}

function bill(rng: Rng, payee: string, minPounds: number, maxPounds: number, maxDay = 28): Bill {
  return { payee, pence: rng.pence(minPounds, maxPounds), day: rng.int(1, maxDay) };
}

function incomeOf(rng: Rng): Profile['income'] {
  const r = rng.next();
  if (r < 0.6) return { kind: 'salary_monthly', source: rng.pick(EMPLOYERS), pence: rng.pence(1400, 4800), day: rng.pick([1, 15, 25, 28]) };
  // Four-weekly pay: `day` is the offset of the first payday into the period.
  if (r < 0.72) return { kind: 'salary_four_weekly', source: rng.pick(EMPLOYERS), pence: rng.pence(1200, 3200), day: rng.int(0, 27) };
  // Universal credit: the standard allowance here; housing and child elements are added once those are known.
  if (r < 0.86) return { kind: 'benefits', source: 'DWP UC', pence: rng.pence(390, 800), day: rng.int(1, 28) };
  return { kind: 'gig', source: rng.pick(GIG_PLATFORMS), pence: rng.pence(150, 500), day: rng.int(1, 7) };
}

/** Typical monthly income in pence, which the customer's spending is sized to. */
function monthlyIncome(income: Profile['income']): number {
  switch (income.kind) {
    case 'salary_four_weekly':
      return Math.round((income.pence * 13) / 12);
    case 'gig':
      return Math.round(income.pence * 4.5);
    default:
      return income.pence;
  }
}

/** What the discretionary spending in bills.ts and spending.ts adds up to per month at scale 1, in pence. */
const DISCRETIONARY_AT_SCALE_1 = 115_000;

export function buildProfile(rng: Rng, index: number, clients: number, periodMonths: number): Profile {
  const short = `c${pad(index)}`;
  const customerId = `cust-${pad(index)}`;
  const clientId = `client-${rng.int(1, Math.max(1, clients))}`;
  const firstName = rng.pick(FIRST_NAMES);
  const lastName = rng.pick(LAST_NAMES);
  const bank = rng.pick(BANKS);

  const current: AccountProfile = {
    id: `${short}-acc-1`, kind: 'current', provider: bank.name, name: 'Current Account',
    number: String(rng.int(10_000_000, 99_999_999)), sortCode: sortCode(rng, bank), openingPence: rng.pence(-300, 2500),
  };
  const savings: AccountProfile | undefined = rng.chance(0.45)
    ? {
        id: `${short}-acc-2`, kind: 'savings', provider: bank.name, name: 'Easy Saver',
        number: String(rng.int(10_000_000, 99_999_999)), sortCode: sortCode(rng, bank), openingPence: rng.pence(100, 15_000),
      }
    : undefined;
  const card: AccountProfile | undefined = rng.chance(0.4)
    ? {
        id: `${short}-acc-3`, kind: 'credit_card', provider: rng.pick(CARD_ISSUERS), name: 'Credit Card',
        number: '', sortCode: '', openingPence: rng.pence(0, 1800),
      }
    : undefined;

  const drawn = incomeOf(rng);
  const children = drawn.kind === 'benefits' ? rng.int(0, 3) : rng.chance(0.3) ? rng.int(1, 3) : 0;
  const housingRoll = rng.next();
  const kind = housingRoll < 0.45 || (drawn.kind === 'benefits' && housingRoll < 0.85) ? 'rent' : housingRoll < 0.8 ? 'mortgage' : undefined;
  // Housing costs follow income, except for benefit claimants, whose housing element follows the rent.
  const housingPence = drawn.kind === 'benefits' ? rng.pence(450, 1100) : Math.round(monthlyIncome(drawn) * (0.22 + 0.14 * rng.next()));
  const housing: Profile['housing'] = kind
    ? { kind, bill: { payee: rng.pick(kind === 'rent' ? LANDLORDS : LENDERS), pence: kind === 'rent' ? Math.round(housingPence / 500) * 500 : housingPence, day: rng.int(1, kind === 'rent' ? 5 : 28) } }
    : undefined;
  const income = drawn.kind === 'benefits' && housing
    ? { ...drawn, pence: drawn.pence + Math.round(housing.bill.pence * 0.9) + children * 29_000 }
    : drawn;
  // People living with family usually pay no council tax or water of their own.
  const councilTax = housing && rng.chance(0.92) ? bill(rng, rng.pick(COUNCILS), 95, 260) : undefined;
  const water = housing ? bill(rng, rng.pick(WATER), 24, 62) : undefined;
  const energy = housing ? bill(rng, rng.pick(ENERGY), 55, 230) : bill(rng, rng.pick(ENERGY), 20, 45);
  const phones = rng.sample(PHONE, rng.int(1, 2)).map((p) => bill(rng, p, 10, 65));
  const drives = rng.chance(0.4);
  const subscriptions = rng.sample(SUBSCRIPTIONS, rng.int(0, 5)).map((s) => ({ ...s, day: rng.int(1, 28) }));
  const savingsPlan = savings && rng.chance(0.8) ? { payee: 'SAVINGS', pence: Math.round(monthlyIncome(income) * rng.int(3, 12) / 100), day: rng.int(1, 28) } : undefined;
  const fixed = (housing?.bill.pence ?? 0) + (councilTax ? Math.round(councilTax.pence * 10 / 12) : 0) + energy.pence + (water?.pence ?? 0)
    + phones.reduce((sum, b) => sum + b.pence, 0) + (savingsPlan?.pence ?? 0);
  // Some customers live within their means and some do not.
  const thrift = 0.9 + 0.3 * rng.next();
  const scale = Math.min(2.5, Math.max(0.2, ((monthlyIncome(income) - fixed) * thrift) / DISCRETIONARY_AT_SCALE_1));
  const hasApplication = rng.chance(0.3);
  const secret = !hasApplication && rng.chance(0.5) ? `secret-${customerId}-${rng.hex(16)}` : undefined;

  return {
    index, customerId, short, clientId, secret, firstName, lastName,
    accounts: [current, savings, card].filter((a): a is AccountProfile => a !== undefined),
    current, savings, card, income, children, housing, councilTax, energy, water, phones,
    tvLicenceDay: housing && rng.chance(0.7) ? rng.int(1, 28) : undefined,
    insurance: drives ? bill(rng, rng.pick(INSURERS), 35, 140) : undefined,
    gym: rng.chance(0.3) ? bill(rng, rng.pick(GYMS), 20, 75) : undefined,
    subscriptions,
    grocer: { store: rng.pick(SUPERMARKETS), storeNo: rng.int(100, 9999), weekday: rng.int(0, 6), weeklyPence: Math.round(rng.pence(60, 125) * scale) },
    drives,
    appetite: { eatingOut: rng.int(2, 12), coffee: rng.int(0, 14), shopping: rng.int(2, 8), cash: rng.int(0, 3) },
    gambler: rng.chance(0.1),
    savingsPlan,
    scale,
    paysCardInFull: rng.chance(0.45),
    travelMonth: rng.chance(0.25) ? rng.int(0, Math.max(0, periodMonths - 1)) : undefined,
    hasApplication,
  };
}
