import { DAY, HOUR, MINUTE } from './calendar.js';
import type { Profile } from './customers.js';
import type { Rng } from './prng.js';
import { envelope, formatPence, type Emitted, type TransactionRecord } from './records.js';

/**
 * Deliberate faults for testing ingest: replays, stale versions, deletions
 * and invalid lines. They draw from their own PRNG stream, so turning faults
 * on adds lines without changing any other line.
 */

export interface FaultCounts {
  replays: number;
  stale: number;
  deletions: number;
  invalid: number;
}

export const FAULTY_CUSTOMER_SHARE = 0.1;

interface Insertion {
  after: number; // index into the customer's clean lines
  line: string;
}

function toPence(value: string): number {
  const [whole = '0', fraction = '00'] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Indices of distinct, non-transfer transaction lines: faults on a transfer leg would unmatch its pair. */
function pickTargets(rng: Rng, emitted: readonly Emitted[], n: number): number[] | undefined {
  const candidates: number[] = [];
  emitted.forEach((e, i) => {
    if (e.tx && !e.tx.transfer) candidates.push(i);
  });
  if (candidates.length < n) return undefined;
  // Shuffle the first n places (Fisher-Yates, partial).
  for (let i = 0; i < n; i++) {
    const j = rng.int(i, candidates.length - 1);
    const tmp = candidates[i] as number;
    candidates[i] = candidates[j] as number;
    candidates[j] = tmp;
  }
  return candidates.slice(0, n);
}

function somewhereAfter(rng: Rng, index: number, length: number): number {
  return rng.int(index, length - 1);
}

function invalidLine(rng: Rng, profile: Profile, base: Emitted, record: TransactionRecord, kind: number): string {
  const id = `${profile.short}-tx-bad-${rng.hex(6)}`;
  const copy: TransactionRecord = { ...record, transaction_id: id, amount: { ...record.amount } };
  const event = (type: string, data: object): string => envelope(profile, `ev-${id}`, type, base.occurredAt + MINUTE, data);
  switch (kind) {
    case 0:
      // A line cut short, as a crashed producer leaves it.
      return base.line.slice(0, Math.floor(base.line.length / 2));
    case 1: {
      const parsed = JSON.parse(event('transaction.upserted', copy)) as Record<string, unknown>;
      delete parsed.occurred_at;
      const data = parsed.data as Record<string, unknown>;
      delete data.account_id;
      return JSON.stringify(parsed);
    }
    case 2:
      copy.amount.value = rng.chance(0.5) ? '12.345' : '-5.00';
      return event('transaction.upserted', copy);
    case 3:
      copy.enrichments = { categories: { l1: { slug: 'food_and_drink', confidence: '0.95' }, l2: { slug: 'petrol', confidence: '0.95' } } };
      return event('transaction.upserted', copy);
    default:
      return event('transaction.updated', copy);
  }
}

/** Returns the customer's lines with faults mixed in, and counts what it added. */
export function injectFaults(rng: Rng, profile: Profile, emitted: readonly Emitted[], counts: FaultCounts): string[] {
  const lines = emitted.map((e) => e.line);
  if (!rng.chance(FAULTY_CUSTOMER_SHARE)) return lines;
  const targets = pickTargets(rng, emitted, 4);
  if (!targets) return lines;
  const [replayAt, staleAt, deleteAt, invalidBase] = targets as [number, number, number, number];
  const inserts: Insertion[] = [];

  // A replay is byte-identical: same event_id, same everything.
  inserts.push({ after: somewhereAfter(rng, replayAt, lines.length), line: lines[replayAt] as string });
  counts.replays++;

  const stale = emitted[staleAt] as Emitted & { tx: NonNullable<Emitted['tx']> };
  const original = stale.tx.record;
  const staleRecord: TransactionRecord = {
    ...original,
    amount: { ...original.amount, value: formatPence(toPence(original.amount.value) + rng.int(1, 2500)) },
  };
  // Published earlier than the original but delivered after it: ingest must keep the original.
  const staleOccurred = stale.occurredAt - rng.int(1, 48) * HOUR;
  inserts.push({
    after: somewhereAfter(rng, staleAt, lines.length),
    line: envelope(profile, `ev-${original.transaction_id}-stale`, 'transaction.upserted', staleOccurred, staleRecord),
  });
  counts.stale++;

  const deleted = emitted[deleteAt] as Emitted & { tx: NonNullable<Emitted['tx']> };
  const deletedId = deleted.tx.record.transaction_id;
  inserts.push({
    after: somewhereAfter(rng, deleteAt, lines.length),
    line: envelope(profile, `ev-${deletedId}-del`, 'transaction.deleted', deleted.occurredAt + rng.int(1, 10) * DAY, { transaction_id: deletedId }),
  });
  counts.deletions++;

  const base = emitted[invalidBase] as Emitted & { tx: NonNullable<Emitted['tx']> };
  inserts.push({ after: somewhereAfter(rng, invalidBase, lines.length), line: invalidLine(rng, profile, base, base.tx.record, profile.index % 5) });
  counts.invalid++;

  return merge(lines, inserts);
}

function merge(lines: readonly string[], inserts: Insertion[]): string[] {
  const byIndex = new Map<number, string[]>();
  for (const ins of inserts) {
    const list = byIndex.get(ins.after) ?? [];
    list.push(ins.line);
    byIndex.set(ins.after, list);
  }
  const out: string[] = [];
  lines.forEach((line, i) => {
    out.push(line);
    const extra = byIndex.get(i);
    if (extra) out.push(...extra);
  });
  return out;
}
