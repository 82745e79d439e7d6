/** docs/interface.md: redeliver on these statuses only; any other status is final. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);

/** docs/interface.md: up to 10 redeliveries, so at most 11 attempts in all. */
export const MAX_REDELIVERIES = 10;

export interface RetrySettings {
  /** Delay before the first redelivery, before jitter. */
  baseMs: number;
  /** No delay grows beyond this. */
  capMs: number;
}

export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

/**
 * What one attempt means. No response at all (a timeout, a refused or reset
 * connection, a DNS failure) is retryable like a 503: the receiver may be
 * restarting. A redirect is not followed (it would send a signed body
 * elsewhere) and so is final like any other unlisted status.
 */
export function judgeAttempt(statusCode: number | null, attempt: number): AttemptOutcome {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return 'delivered';
  const retryable = statusCode === null || RETRYABLE_STATUSES.has(statusCode);
  return retryable && attempt <= MAX_REDELIVERIES ? 'retry' : 'failed';
}

/**
 * Delay before redelivery n (1-based): exponential, capped, with "equal
 * jitter": a random point in the upper half of the step. Jitter spreads
 * receivers' load after an outage; keeping the lower half out means each gap
 * is at least the previous step, so gaps keep growing until the cap.
 */
export function backoffMs(redelivery: number, settings: RetrySettings, random: () => number = Math.random): number {
  const step = Math.min(settings.capMs, settings.baseMs * 2 ** Math.max(0, redelivery - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
