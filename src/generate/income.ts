import { CAT } from './catalogue.js';
import { DAY, dayAt, HOUR, taxYear, type Month } from './calendar.js';
import type { Ledger } from './ledger.js';
import { slug } from './ledger.js';

/** Money coming in: pay, benefits and gig payouts. */

const SALARY_TAGS = ['income', 'regular-transaction', 'salary'] as const;
const BENEFIT_TAGS = ['income', 'regular-transaction', 'benefits'] as const;
const GIG_TAGS = ['income', 'gig-work'] as const;

/** Child benefit per week (eldest child, each other child) in pence, by the tax year it starts in. */
function childBenefitWeekly(year: number): readonly [number, number] {
  if (year >= 2025) return [2605, 1725];
  if (year === 2024) return [2560, 1695];
  if (year === 2023) return [2400, 1590];
  return [2180, 1445];
}

function monthlySalary(ledger: Ledger): void {
  const { rng, profile, months } = ledger;
  const { source, pence, day } = profile.income;
  const label = `salary ${source}`;
  // Pay rises land in April for most employers.
  let base = pence;
  months.forEach((m) => {
    if (m.month === 4 && rng.chance(0.6)) base = Math.round(base * (1 + rng.int(1, 6) / 100));
    // Overtime and deductions make net pay wobble; bonuses come in March or December.
    let amount = rng.vary(base, 0.03);
    if ((m.month === 3 || m.month === 12) && rng.chance(0.25)) amount += rng.vary(Math.round(base * 0.3), 0.5);
    const at = ledger.creditAt(m, Math.min(day, m.days));
    ledger.add({
      account: profile.current, at, category: CAT.salary, credit: true, pence: amount,
      description: `SALARY ${source}`, tags: SALARY_TAGS, regular: ledger.monthly(m, at, label),
    });
  });
}

/** Fixed-interval credits from the first one after the period starts (`offsetDays` in) to the period end. */
function everyFourWeeks(ledger: Ledger, offsetDays: number, credit: (at: number) => void): void {
  const first = ledger.months[0];
  const last = ledger.months[ledger.months.length - 1];
  if (!first || !last) return;
  const end = last.start + last.days * DAY;
  for (let day = first.start + offsetDays * DAY; day < end; day += 28 * DAY) {
    credit(day + ledger.rng.int(0, 3) * HOUR + ledger.rng.int(0, 59) * 60_000);
  }
}

function fourWeeklySalary(ledger: Ledger): void {
  const { rng, profile } = ledger;
  const { source, pence, day } = profile.income;
  const label = slug(`salary ${source}`);
  everyFourWeeks(ledger, day, (at) => {
    ledger.add({
      account: profile.current, at, category: CAT.salary, credit: true, pence: rng.vary(pence, 0.04),
      description: `SALARY ${source}`, tags: SALARY_TAGS, regular: { frequency: 'four_weekly', next: at + 28 * DAY, label },
    });
  });
}

function universalCredit(ledger: Ledger): void {
  const { rng, profile, months } = ledger;
  months.forEach((m) => {
    // The monthly award tapers with whatever else came in during the assessment period.
    const at = ledger.creditAt(m, profile.income.day);
    ledger.add({
      account: profile.current, at, category: CAT.universalCredit, credit: true, pence: rng.vary(profile.income.pence, 0.15),
      description: 'DWP UC', tags: BENEFIT_TAGS, regular: ledger.monthly(m, at, 'dwp uc'),
    });
  });
}

function childBenefit(ledger: Ledger): void {
  const { profile, rng, months } = ledger;
  const first = months[0];
  if (profile.children === 0 || !first) return;
  // Child benefit is paid every four weeks on a Monday or Tuesday.
  const firstMonday = (8 - new Date(first.start).getUTCDay()) % 7;
  const offset = firstMonday + 7 * rng.int(0, 3);
  everyFourWeeks(ledger, offset, (at) => {
    const m = months[monthIndexOf(months, at)] ?? first;
    const [eldest, other] = childBenefitWeekly(taxYear(m));
    ledger.add({
      account: profile.current, at, category: CAT.childBenefit, credit: true,
      pence: 4 * (eldest + other * (profile.children - 1)), description: 'DWP CHB',
      tags: BENEFIT_TAGS, regular: { frequency: 'four_weekly', next: at + 28 * DAY, label: 'dwp-chb' },
    });
  });
}

function gigPayouts(ledger: Ledger): void {
  const { rng, profile, months } = ledger;
  months.forEach((m) => {
    // Gig income is irregular: the number, days and sizes of payouts all vary.
    const payouts = rng.int(2, 7);
    for (let i = 0; i < payouts; i++) {
      ledger.add({
        account: profile.current, at: dayAt(m, rng.int(1, m.days), rng.int(6, 20), rng.int(0, 59)), category: CAT.gigWork,
        credit: true, pence: rng.vary(profile.income.pence, 0.6), description: `${profile.income.source} PAYOUT`, tags: GIG_TAGS,
      });
    }
  });
}

export function addIncome(ledger: Ledger): void {
  switch (ledger.profile.income.kind) {
    case 'salary_monthly':
      monthlySalary(ledger);
      break;
    case 'salary_four_weekly':
      fourWeeklySalary(ledger);
      break;
    case 'benefits':
      universalCredit(ledger);
      break;
    case 'gig':
      gigPayouts(ledger);
      break;
  }
  childBenefit(ledger);
}

export function monthIndexOf(months: readonly Month[], at: number): number {
  return months.findIndex((m) => at >= m.start && at < m.start + m.days * DAY);
}
