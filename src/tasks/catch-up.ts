import { setTimeout as sleep } from 'node:timers/promises';

/** True once the store holds everything that the probe's snapshot covered. */
export type CatchUpCheck = () => Promise<boolean>;

/**
 * Called when a refresh is requested. It notes where every source stands at
 * that moment (for Kafka: each partition's end offset) and returns the check
 * that tells when ingestion has reached those points (the offsets committed
 * in DuckDB). Sources provide their own; the service injects it.
 */
export type CatchUpProbe = () => Promise<CatchUpCheck>;

/**
 * Without a consumer, whatever was ingested has been committed before the
 * request could see it (files and HTTP ingestion write synchronously), so
 * the store has always caught up.
 */
export const alreadyCaughtUp: CatchUpProbe = async () => async () => true;

/** Polls `check` until it holds (true), the deadline passes or the signal aborts (false). */
export async function waitUntilCaughtUp(check: CatchUpCheck, deadline: number, pollMs: number, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    if (await check()) return true;
    const left = deadline - Date.now();
    if (signal.aborted || left <= 0) return false;
    try {
      await sleep(Math.min(pollMs, left), undefined, { signal });
    } catch {
      return false;
    }
  }
}
