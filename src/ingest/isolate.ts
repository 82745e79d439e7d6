import type { PreparedItem } from './types.js';

/** Writes some prepared items and rolls them back: undefined if the store takes them, else its error. */
export type TrialWrite = (items: readonly PreparedItem[]) => Promise<unknown>;

export interface Rejected {
  index: number;
  error: unknown;
}

/** The dead letter reason of an event the store rejected: the first line of the store's error, bounded. */
export function storeRejectionReason(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return `store rejected the event: ${message.split('\n')[0] ?? ''}`.slice(0, 500);
}

/**
 * Finds the first event the store rejects, given the ones before it: the
 * batch is written by prefixes, halving the range between a prefix the store
 * takes (the first `knownGood` items) and one it rejects. Prefixes rather than
 * halves alone, because an event may be rejected only after the ones before
 * it (a sum that then overflows). Returns undefined when the store is at
 * fault rather than an event: it takes the whole batch in a trial (so the
 * failure was elsewhere), rejects even the prefix known to be good, or
 * takes, tried once more at the end, the prefix that ends with the event to
 * blame: a store can fail a trial for a reason of its own and then take the
 * next (short of memory for a moment, or DuckDB's database attached again
 * after a failed checkpoint).
 */
export async function isolateRejected(items: readonly PreparedItem[], knownGood: number, trial: TrialWrite): Promise<Rejected | undefined> {
  if ((await trial(items)) === undefined) return undefined;
  if ((await trial(items.slice(0, knownGood))) !== undefined) return undefined;
  let good = knownGood;
  let bad = items.length;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if ((await trial(items.slice(0, mid))) === undefined) good = mid;
    else bad = mid;
  }
  // Once more before the event is blamed: a rejection that passed (the store short of memory, or attached again
  // meanwhile) is the store's, and would otherwise make a dead letter, and a lost event from Kafka, of a valid one.
  const failure = await trial(items.slice(0, bad));
  if (failure === undefined) return undefined;
  return { index: good, error: failure };
}
