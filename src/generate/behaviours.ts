import { CAT, EMPLOYERS, PAYDAY_LENDERS } from './catalogue.js';
import { DAY, dayAt, HOUR, type Month } from './calendar.js';
import type { AccountProfile, Profile } from './customers.js';
import { slug, type Ledger } from './ledger.js';
import type { Rng } from './prng.js';

/**
 * What an underwriter looks for, given to some customers so that the demo
 * and the tests meet each of them: a second job, a payday loan, returned
 * direct debits with their fees, an overdrawn current account (with the
 * running balance on each transaction), and heavy gambling. Benefits come
 * with the income kinds of customers.ts. Drawn from a PRNG stream of their
 * own, so customers without a behaviour are exactly as before.
 */

export interface Behaviours {
  readonly secondJob: boolean;
  readonly paydayLoan: boolean;
  readonly returnedDirectDebits: boolean;
  readonly overdraft: boolean;
  readonly heavyGambling: boolean;
}

export function drawBehaviours(rng: Rng, profile: Profile): Behaviours {
  const salaried = profile.income.kind === 'salary_monthly' || profile.income.kind === 'salary_four_weekly';
  return {
    secondJob: salaried && rng.chance(0.15),
    paydayLoan: rng.chance(0.1),
    returnedDirectDebits: rng.chance(0.1),
    overdraft: rng.chance(0.12),
    heavyGambling: rng.chance(0.05),
  };
}

/** An overdrawn customer starts the period already below zero. */
export function withBehaviourAccounts(rng: Rng, profile: Profile, b: Behaviours): Profile {
  if (!b.overdraft) return profile;
  const current: AccountProfile = { ...profile.current, openingPence: -rng.pence(800, 2500) };
  return { ...profile, current, accounts: profile.accounts.map((a) => (a.id === current.id ? current : a)) };
}

function secondJob(ledger: Ledger, rng: Rng): void {
  const { profile, months } = ledger;
  const first = months[0];
  const last = months.at(-1);
  if (!first || !last) return;
  const employer = rng.pick(EMPLOYERS.filter((e) => e !== profile.income.source));
  const pence = rng.pence(350, 900);
  const end = last.start + last.days * DAY;
  // Part-time pay, every four weeks.
  for (let at = first.start + rng.int(0, 27) * DAY + rng.int(0, 3) * HOUR; at < end; at += 28 * DAY) {
    ledger.add({
      account: profile.current, at, category: CAT.salary, credit: true, pence: rng.vary(pence, 0.05), description: `SALARY ${employer}`,
      tags: ['income', 'regular-transaction', 'salary'], regular: { frequency: 'four_weekly', next: at + 28 * DAY, label: slug(`salary ${employer}`) },
    });
  }
}

function paydayLoan(ledger: Ledger, rng: Rng): void {
  const { profile, months } = ledger;
  const start = rng.int(0, Math.max(0, months.length - 2));
  const lender = rng.pick(PAYDAY_LENDERS);
  const pence = rng.pence(150, 600);
  const m = months[start];
  if (!m) return;
  ledger.add({ account: profile.current, at: dayAt(m, rng.int(1, m.days), 11, rng.int(0, 59)), category: CAT.paydayLoans, credit: true, pence, description: lender, tags: ['loan'] });
  // Repaid in three monthly instalments with interest, as far as the period goes.
  const instalment = Math.round((pence * 1.24) / 3);
  for (let k = 1; k <= 3; k++) {
    const due = months[start + k];
    if (!due) break;
    ledger.add({
      account: profile.current, at: ledger.debitAt(due, 3), category: CAT.paydayLoans, credit: false, pence: instalment,
      description: `${lender} REPAYMENT`, tags: ['regular-transaction', 'loan'], regular: ledger.monthly(due, ledger.debitAt(due, 3), `${lender} repayment`),
    });
  }
}

/** The energy direct debit comes back unpaid, and the bank charges for it. */
function returnedDirectDebits(ledger: Ledger, rng: Rng): void {
  const { profile, months } = ledger;
  const times = rng.int(1, 2);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(times, months.length)) chosen.add(rng.int(0, months.length - 1));
  for (const i of [...chosen].sort((a, b) => a - b)) {
    const m = months[i] as Month;
    const day = Math.min(profile.energy.day + 2, m.days);
    ledger.add({ account: profile.current, at: dayAt(m, day, 9, 0), category: CAT.unpaid, credit: true, pence: profile.energy.pence, description: `UNPAID DD ${profile.energy.payee}` });
    ledger.add({ account: profile.current, at: dayAt(m, day, 10, 0), category: CAT.unpaid, credit: false, pence: 1500, description: 'UNPAID ITEM FEE' });
  }
}

/** On top of any gambling spending.ts draws: about a fifth of the month's income. */
function heavyGambling(ledger: Ledger, rng: Rng): void {
  const { profile, months } = ledger;
  const monthly = profile.income.kind === 'salary_four_weekly' ? Math.round((profile.income.pence * 13) / 12) : profile.income.pence;
  months.forEach((m, i) => {
    const bets = rng.int(4, 10);
    const each = Math.max(500, Math.round((monthly * (0.15 + 0.1 * rng.next())) / bets / 100) * 100);
    for (let n = 0; n < bets; n++) {
      ledger.add({ account: profile.current, at: ledger.shopAt(m), category: CAT.gambling, credit: false, pence: each, description: 'BET365', tags: ['gambling'] }, i);
    }
  });
}

export function addBehaviours(ledger: Ledger, rng: Rng, b: Behaviours): void {
  if (b.secondJob) secondJob(ledger, rng);
  if (b.paydayLoan) paydayLoan(ledger, rng);
  if (b.returnedDirectDebits) returnedDirectDebits(ledger, rng);
  if (b.heavyGambling) heavyGambling(ledger, rng);
}
