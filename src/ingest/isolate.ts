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
 * takes at the end the prefix it rejected at the start. A store can come
 * back between two trials (DuckDB's database attached again after a failed
 * checkpoint), so the prefix that ends with the event to blame is tried
 * once more when its rejection came before a prefix the store took.
 */
export async function isolateRejected(items: readonly PreparedItem[], knownGood: number, trial: TrialWrite): Promise<Rejected | undefined> {
  let failure = await trial(items);
  if (failure === undefined) return undefined;
  if ((await trial(items.slice(0, knownGood))) !== undefined) return undefined;
  let good = knownGood;
  let bad = items.length;
  // Whether `bad` was rejected after a prefix was taken: the whole batch was rejected before the store took any.
  let rejectedSinceTaken = false;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    const err = await trial(items.slice(0, mid));
    if (err === undefined) good = mid;
    else {
      bad = mid;
      failure = err;
      rejectedSinceTaken = true;
    }
  }
  if (!rejectedSinceTaken) {
    failure = await trial(items.slice(0, bad));
    if (failure === undefined) return undefined;
  }
  return { index: good, error: failure };
}
