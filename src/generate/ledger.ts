import { CAT, type Category } from './catalogue.js';
import type { AccountProfile, Profile } from './customers.js';
import { DAY, dayAt, MINUTE, workingDay, type Month } from './calendar.js';
import type { Rng } from './prng.js';

/**
 * Collects one customer's transactions before they get ids, so that ids can
 * follow time order and balances can be worked out from what was drawn.
 */

export interface Regularity {
  readonly frequency: string;
  readonly next: number;
  readonly label: string;
}

export interface DraftTx {
  readonly account: AccountProfile;
  readonly at: number;
  readonly category: Category;
  readonly credit: boolean;
  readonly pence: number;
  readonly currency: 'GBP' | 'EUR';
  readonly description: string;
  readonly tags: readonly string[];
  readonly regular?: Regularity;
  readonly counterparty?: { readonly name: string; readonly identifier: string };
  /** A leg of a movement between own accounts; faults leave these alone so that both legs stay matched. */
  readonly transfer?: boolean;
}

export type Draft = Omit<DraftTx, 'currency' | 'tags'> & { currency?: 'GBP' | 'EUR'; tags?: readonly string[] };

/** Rough EUR->GBP rate, only for the account balances; transactions keep their own currency. */
const EUR_TO_GBP = 0.86;

export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

export class Ledger {
  readonly txs: DraftTx[] = [];
  /** Card spend per month index, which the following month's repayment settles. */
  readonly cardSpend: number[];

  constructor(readonly rng: Rng, readonly profile: Profile, readonly months: readonly Month[]) {
    this.cardSpend = months.map(() => 0);
  }

  add(draft: Draft, monthIndex?: number): void {
    const tx: DraftTx = { ...draft, currency: draft.currency ?? 'GBP', tags: draft.tags ?? [] };
    this.txs.push(tx);
    if (monthIndex !== undefined && tx.account.kind === 'credit_card' && !tx.credit) {
      this.cardSpend[monthIndex] = (this.cardSpend[monthIndex] ?? 0) + toGbp(tx);
    }
  }

  /**
   * A discretionary amount, sized to the customer's means. `weight` damps the
   * scaling for needs such as fuel, which cost much the same whatever one earns.
   */
  spend(minPounds: number, maxPounds: number, weight = 1): number {
    return Math.max(1, Math.round(this.rng.pence(minPounds, maxPounds) * this.profile.scale ** weight));
  }

  /** Card-payable spend goes on the credit card about half the time, when there is one. */
  spendAccount(cardShare = 0.5): AccountProfile {
    const card = this.profile.card;
    return card && this.rng.chance(cardShare) ? card : this.profile.current;
  }

  /** A direct debit: collected early in the morning, on the next working day. */
  debitAt(m: Month, day: number): number {
    return dayAt(m, workingDay(m, day, 'forward'), this.rng.int(1, 6), this.rng.int(0, 59));
  }

  /** A credit such as pay: it lands in the small hours, on the working day before a weekend. */
  creditAt(m: Month, day: number): number {
    return dayAt(m, workingDay(m, day, 'back'), this.rng.int(0, 3), this.rng.int(0, 59));
  }

  /** A card payment on a random day of the month, in shop hours. */
  shopAt(m: Month, day = this.rng.int(1, m.days)): number {
    return dayAt(m, day, this.rng.int(7, 21), this.rng.int(0, 59)) + this.rng.int(0, 59) * 1000;
  }

  /** Regularity for a monthly payment; `at` plus the month's length lands on the same day next month. */
  monthly(m: Month, at: number, label: string): Regularity {
    return { frequency: 'monthly', next: at + m.days * DAY, label: slug(label) };
  }

  /** Both legs of a movement between the customer's own accounts, at the same instant. */
  transfer(from: AccountProfile, to: AccountProfile, at: number, pence: number, regular?: Regularity): void {
    const holder = `${this.profile.firstName} ${this.profile.lastName}`;
    const base = { category: CAT.ownTransfer, pence, at, transfer: true, tags: transferTags } as const;
    const reg = regular ? { regular } : {};
    this.add({
      ...base, ...reg, account: from, credit: false, description: `TO ${label(to)}`,
      counterparty: { name: holder, identifier: identifier(to) },
    });
    this.add({
      ...base, ...reg, account: to, credit: true, description: `FROM ${label(from)}`,
      counterparty: { name: holder, identifier: identifier(from) },
    });
  }
}

const transferTags = ['transfer'] as const;

function label(a: AccountProfile): string {
  return `${a.name.toUpperCase()} ${a.number.slice(-4)}`;
}

function identifier(a: AccountProfile): string {
  return a.sortCode ? `${a.sortCode} ${a.number}` : a.id;
}

export function toGbp(tx: DraftTx): number {
  return tx.currency === 'EUR' ? Math.round(tx.pence * EUR_TO_GBP) : tx.pence;
}

/** Upstream delivery lag: the event about a transaction is published a little after it happened. */
export function occurredAfter(rng: Rng, at: number): number {
  return at + rng.int(2, 90) * MINUTE + rng.int(0, 59) * 1000;
}

export const PENDING_WINDOW = 3 * DAY;
