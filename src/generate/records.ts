import { DAY, HOUR, iso, MINUTE } from './calendar.js';
import type { AccountProfile, Profile } from './customers.js';
import type { DraftTx } from './ledger.js';
import { occurredAfter, PENDING_WINDOW, toGbp } from './ledger.js';
import type { Rng } from './prng.js';

/**
 * Event envelopes and records as plain objects. Object literals fix the key
 * order, so JSON.stringify gives the same bytes every run.
 */

export interface TransactionRecord {
  transaction_id: string;
  account_id: string;
  provider: string;
  description: string;
  credit_debit_indicator: 'credit' | 'debit';
  amount: { value: string; currency: string };
  date_time: string;
  status: 'booked' | 'pending';
  enrichments: {
    categories: { l1: { slug: string; confidence: string }; l2: { slug: string; confidence: string } };
    regularity?: { frequency: string; predicted_date_times: string[]; group_label: string };
  };
  tags: string[];
  counterparty?: { name: string; identifier: string };
  running_balance?: { value: string; currency: string };
}

/** One line of output with what the fault injector needs to know about it. */
export interface Emitted {
  line: string;
  occurredAt: number;
  tx?: { record: TransactionRecord; transfer: boolean };
}

export function formatPence(pence: number): string {
  return `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
}

/** A balance, which may be below zero. */
export function formatSignedPence(pence: number): string {
  return pence < 0 ? `-${formatPence(-pence)}` : formatPence(pence);
}

export function envelope(profile: Profile, eventId: string, type: string, occurredAt: number, data: object): string {
  return JSON.stringify({
    event_id: eventId,
    type,
    occurred_at: iso(occurredAt),
    client_id: profile.clientId,
    customer_id: profile.customerId,
    // Undefined is left out by JSON.stringify, so hosted customers carry no secret at all.
    customer_secret: profile.secret,
    data,
  });
}

const CONFIDENCE = '0.95';

function transactionRecord(id: string, tx: DraftTx, pending: boolean): TransactionRecord {
  return {
    transaction_id: id,
    account_id: tx.account.id,
    provider: tx.account.provider,
    description: tx.description,
    credit_debit_indicator: tx.credit ? 'credit' : 'debit',
    amount: { value: formatPence(tx.pence), currency: tx.currency },
    date_time: iso(tx.at),
    status: pending ? 'pending' : 'booked',
    enrichments: {
      categories: { l1: { slug: tx.category.l1, confidence: CONFIDENCE }, l2: { slug: tx.category.l2, confidence: CONFIDENCE } },
      ...(tx.regular
        ? { regularity: { frequency: tx.regular.frequency, predicted_date_times: [iso(tx.regular.next)], group_label: tx.regular.label } }
        : {}),
    },
    tags: [...tx.tags],
    ...(tx.counterparty ? { counterparty: { name: tx.counterparty.name, identifier: tx.counterparty.identifier } } : {}),
  };
}

export interface Balances {
  booked: Map<string, number>;
  pending: Map<string, number>;
}

/**
 * Turns the drafts into transaction events in time order, with ids that
 * follow it, and works out each account's balance at the end.
 */
export function transactionEvents(
  rng: Rng, profile: Profile, drafts: DraftTx[], periodEnd: number, runningBalances = false,
): { emitted: Emitted[]; balances: Balances } {
  // Array.prototype.sort is stable, so the two legs of a transfer stay together and in order.
  drafts.sort((a, b) => a.at - b.at);
  const balances: Balances = { booked: new Map(), pending: new Map() };
  for (const a of profile.accounts) {
    balances.booked.set(a.id, a.openingPence);
    balances.pending.set(a.id, 0);
  }
  const emitted = drafts.map((tx, i): Emitted => {
    const id = `${profile.short}-tx-${String(i + 1).padStart(6, '0')}`;
    // Card payments of the last few days are often still pending; direct debits and transfers are not.
    const pending = !tx.regular && !tx.transfer && tx.at >= periodEnd - PENDING_WINDOW && rng.chance(0.5);
    // Money held grows with credits; a card's balance is money owed, which grows with debits.
    const sign = (tx.credit ? 1 : -1) * (tx.account.kind === 'credit_card' ? -1 : 1);
    const book = pending ? balances.pending : balances.booked;
    book.set(tx.account.id, (book.get(tx.account.id) ?? 0) + sign * toGbp(tx));
    const record = transactionRecord(id, tx, pending);
    // Some banks give the balance after each booked transaction of a current account (GBP only: the balance is kept in GBP).
    if (runningBalances && !pending && tx.account.kind === 'current' && tx.currency === 'GBP') {
      record.running_balance = { value: formatSignedPence(book.get(tx.account.id) ?? 0), currency: 'GBP' };
    }
    const occurredAt = occurredAfter(rng, tx.at);
    return { line: envelope(profile, `ev-${id}`, 'transaction.upserted', occurredAt, record), occurredAt, tx: { record, transfer: tx.transfer === true } };
  });
  return { emitted, balances };
}

function balance(asOf: number, pence: number, type: string, card: boolean): object {
  // A card balance is owed (debit) when positive; an account balance is held (credit) when positive.
  const held = card ? pence <= 0 : pence >= 0;
  return { date: iso(asOf), amount: { value: formatPence(Math.abs(pence)), currency: 'GBP' }, type, credit_debit_indicator: held ? 'credit' : 'debit' };
}

export function accountEvent(profile: Profile, account: AccountProfile, balances: Balances, asOf: number): Emitted {
  const booked = balances.booked.get(account.id) ?? 0;
  const forward = booked + (balances.pending.get(account.id) ?? 0);
  const card = account.kind === 'credit_card';
  const data = {
    account_id: account.id,
    currency: 'GBP',
    holder: { name: `${profile.firstName} ${profile.lastName}`, relationship: 'account_holder' },
    account_name: account.name,
    account_type: account.kind,
    usage_type: 'personal',
    provider: account.provider,
    identifiers: card ? {} : { uk_account_number: account.number, uk_sort_code: account.sortCode },
    balances: [balance(asOf, booked, 'expected', card), balance(asOf, forward, 'forward_available', card)],
  };
  return { line: envelope(profile, `ev-${account.id}`, 'account.upserted', asOf, data), occurredAt: asOf };
}

const REVIEWERS = ['underwriter-1', 'underwriter-2', 'underwriter-3', 'underwriter-4'] as const;

/** An application made just before the accounts were connected; `asOf` is the connection time. */
export function applicationEvent(rng: Rng, profile: Profile, asOf: number): Emitted {
  const applicationId = `app-${profile.short}`;
  const created = asOf - rng.int(1, 72) * HOUR - rng.int(0, 59) * MINUTE;
  const review = rng.next();
  const reviewStatus = review < 0.7 ? 'pending' : review < 0.9 ? 'approved' : 'declined';
  const assessed = reviewStatus === 'pending' ? null : asOf + rng.int(1, 48) * HOUR;
  const occurredAt = (assessed ?? asOf) + rng.int(5, 30) * MINUTE;
  const data = {
    application_id: applicationId,
    customer_id: profile.customerId,
    creation_date: iso(created),
    deletion_date: null,
    assessment_date: assessed === null ? null : iso(assessed),
    accounts_connected: profile.accounts.length,
    metadata: { account_connection_initiator: rng.chance(0.7) ? 'customer' : 'broker', application_id: applicationId },
    primary_applicant: { first_name: profile.firstName, last_name: profile.lastName },
    secondary_applicants: rng.chance(0.2) ? [{ first_name: rng.pick(['Sam', 'Alex', 'Jo', 'Chris', 'Nicola']), last_name: profile.lastName }] : null,
    initiator_id: `user-${rng.hex(8)}`,
    customer_link: {
      created_at: iso(created + rng.int(1, 30) * MINUTE),
      url: `https://connect.example.co.uk/link/${applicationId}-${rng.hex(12)}`,
      finished_connecting_accounts: true,
      expired: false,
      status: 'completed',
    },
    review_status: reviewStatus,
    assignee: reviewStatus === 'pending' ? '' : rng.pick(REVIEWERS),
  };
  return { line: envelope(profile, `ev-${applicationId}`, 'application.upserted', occurredAt, data), occurredAt };
}

/** Accounts are connected (and their balances read) a few hours after the period closes. */
export function connectionTime(rng: Rng, periodEnd: number): number {
  return periodEnd + rng.int(6, 20) * HOUR + rng.int(0, 59) * MINUTE + rng.int(0, 6) * DAY;
}
