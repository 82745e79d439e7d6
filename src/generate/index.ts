import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { addEssentials } from './bills.js';
import { DAY, defaultEndMonth, monthFromKey, periodMonths, type Month } from './calendar.js';
import { buildProfile } from './customers.js';
import { injectFaults, type FaultCounts } from './faults.js';
import { addIncome } from './income.js';
import { Ledger } from './ledger.js';
import { STREAM_BEHAVIOURS, STREAM_FAULTS, STREAM_PROFILE, streamFor } from './prng.js';
import { addBehaviours, drawBehaviours, withBehaviourAccounts } from './behaviours.js';
import { accountEvent, applicationEvent, connectionTime, transactionEvents, type Emitted } from './records.js';
import { addSpending } from './spending.js';
import { affordError } from '../domain/errors.js';

/**
 * Deterministic synthetic UK bank data as NDJSON event envelopes. Each
 * customer is generated from PRNG streams of their own, one at a time, so
 * memory stays flat and customer N looks the same whatever the total.
 */

export { renderProgress, stderrProgress } from './progress.js';

export interface GenerateOptions {
  customers: number;
  months: number;
  seed: number;
  faults: boolean;
  /** YYYY-MM, the last month generated; default: the last complete month before now. */
  endMonth?: string;
  /** Default 2; client ids are 'client-1', 'client-2', ... */
  clients?: number;
}

/** What ingest of the output should end with. */
export interface ExpectedOutcome {
  /** Invalid lines: each one becomes one dead letter. */
  deadLetters: number;
  /** Distinct transactions minus the deleted ones. */
  liveTransactions: number;
}

export interface GenerateStats {
  /** Lines that are valid events, replays and stale versions included. */
  events: number;
  lines: number;
  faults: FaultCounts;
  expected: ExpectedOutcome;
}

interface Plan {
  readonly opts: GenerateOptions;
  readonly clients: number;
  readonly months: readonly Month[];
  readonly periodEnd: number;
}

function plan(opts: GenerateOptions): Plan {
  if (!Number.isInteger(opts.customers) || opts.customers < 0) throw affordError('GENERATE_OPTION_INVALID', 'customers', 'a whole number >= 0');
  if (!Number.isInteger(opts.months) || opts.months < 1) throw affordError('GENERATE_OPTION_INVALID', 'months', 'a whole number >= 1');
  if (!Number.isFinite(opts.seed)) throw affordError('GENERATE_OPTION_INVALID', 'seed', 'a number');
  const clients = opts.clients ?? 2;
  if (!Number.isInteger(clients) || clients < 1) throw affordError('GENERATE_OPTION_INVALID', 'clients', 'a whole number >= 1');
  const endMonth = opts.endMonth ?? defaultEndMonth();
  const last = monthFromKey(endMonth);
  return { opts, clients, months: periodMonths(endMonth, opts.months), periodEnd: last.start + last.days * DAY };
}

function emptyStats(): GenerateStats {
  return {
    events: 0,
    lines: 0,
    faults: { replays: 0, stale: 0, deletions: 0, invalid: 0 },
    expected: { deadLetters: 0, liveTransactions: 0 },
  };
}

/** All lines of customer `index` (1-based), in order: accounts, transactions by time, application; faults mixed in. */
function customerLines(p: Plan, index: number, stats: GenerateStats): string[] {
  const rng = streamFor(p.opts.seed, index, STREAM_PROFILE);
  const behaviourRng = streamFor(p.opts.seed, index, STREAM_BEHAVIOURS);
  const drawn = buildProfile(rng, index, p.clients, p.months.length);
  const behaviours = drawBehaviours(behaviourRng, drawn);
  const profile = withBehaviourAccounts(behaviourRng, drawn, behaviours);
  const ledger = new Ledger(rng, profile, p.months);
  addIncome(ledger);
  addEssentials(ledger);
  addSpending(ledger);
  addBehaviours(ledger, behaviourRng, behaviours);
  const { emitted: txEvents, balances } = transactionEvents(rng, profile, ledger.txs, p.periodEnd, behaviours.overdraft);
  const asOf = connectionTime(rng, p.periodEnd);
  const emitted: Emitted[] = profile.accounts.map((a) => accountEvent(profile, a, balances, asOf));
  for (const e of txEvents) emitted.push(e);
  if (profile.hasApplication) emitted.push(applicationEvent(rng, profile, asOf));

  const before = { ...stats.faults };
  const lines = p.opts.faults
    ? injectFaults(streamFor(p.opts.seed, index, STREAM_FAULTS), profile, emitted, stats.faults)
    : emitted.map((e) => e.line);
  const invalid = stats.faults.invalid - before.invalid;
  stats.lines += lines.length;
  stats.events += lines.length - invalid;
  stats.expected.deadLetters += invalid;
  stats.expected.liveTransactions += txEvents.length - (stats.faults.deletions - before.deletions);
  return lines;
}

/**
 * Yields one NDJSON line (no newline) at a time. The generator's return
 * value is the stats, for callers that step it by hand.
 */
export function* generateEvents(opts: GenerateOptions): Generator<string, GenerateStats, undefined> {
  const p = plan(opts);
  const stats = emptyStats();
  for (let i = 1; i <= opts.customers; i++) {
    yield* customerLines(p, i, stats);
  }
  return stats;
}

const CHUNK_CHARS = 1 << 20;

/**
 * Writes every line with a newline to `out`, waiting for 'drain' whenever the
 * stream asks for it. The stream is left open: it may be standard output.
 */
export async function writeEvents(
  opts: GenerateOptions,
  out: NodeJS.WritableStream,
  onProgress?: (doneCustomers: number, total: number) => void,
): Promise<GenerateStats> {
  const p = plan(opts);
  const stats = emptyStats();
  // Lines are batched: one write per line costs more than generating it.
  let chunk: string[] = [];
  let chunkChars = 0;
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    const text = chunk.join('');
    chunk = [];
    chunkChars = 0;
    if (!out.write(text)) await once(out, 'drain');
  };
  for (let i = 1; i <= opts.customers; i++) {
    for (const line of customerLines(p, i, stats)) {
      chunk.push(line, '\n');
      chunkChars += line.length + 1;
    }
    if (chunkChars >= CHUNK_CHARS) await flush();
    onProgress?.(i, opts.customers);
  }
  await flush();
  // Resolve only once the last chunk is handed off, so that a write error rejects here.
  await new Promise<void>((resolve, reject) => out.write('', (err) => (err ? reject(err) : resolve())));
  return stats;
}

/** Writes every line with a newline into a new file at `file`, resolving once the file is whole. */
export async function writeEventsFile(
  opts: GenerateOptions,
  file: string,
  onProgress?: (doneCustomers: number, total: number) => void,
): Promise<GenerateStats> {
  const out = createWriteStream(file);
  const stats = await writeEvents(opts, out, onProgress);
  out.end();
  await once(out, 'finish');
  return stats;
}
