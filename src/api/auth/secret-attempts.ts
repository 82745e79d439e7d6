import { LRUCache } from 'lru-cache';

/** Wrong secrets a customer may be sent within WINDOW_MS before further tries are refused. */
export const MAX_FAILED_ATTEMPTS = 10;
/** How long failed attempts are remembered, and how long a customer stays locked once they reach the limit. */
export const WINDOW_MS = 10 * 60_000;
/** Customers whose failures are remembered at once: the oldest are forgotten first. */
const KEYS = 100_000;

/**
 * Failed customer secrets, per client and customer: a customer's secret is
 * chosen by the lender and may be short, and nothing else stopped a caller
 * holding the client's token from trying secret after secret (ten thousand
 * four-digit ones took 32 s). After MAX_FAILED_ATTEMPTS wrong secrets within
 * WINDOW_MS, every try, right or wrong, is refused until the window has
 * passed since the last failure. A wrong customer_secret in an ingestion
 * body counts as a wrong header does (routes/ingest.routes.ts). Per process:
 * each shard counts its own customers' failures, as only it serves them.
 */
export class SecretAttempts {
  private readonly failures = new LRUCache<string, { count: number; last: number }>({ max: KEYS });

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until the customer may be tried again, or 0 when it may be now. */
  lockedFor(clientId: string, customerId: string): number {
    const f = this.failures.get(key(clientId, customerId));
    if (!f || f.count < MAX_FAILED_ATTEMPTS) return 0;
    const left = f.last + WINDOW_MS - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  failed(clientId: string, customerId: string): void {
    const k = key(clientId, customerId);
    const now = this.now();
    const f = this.failures.get(k);
    // Failures older than the window are forgotten.
    const count = f && now - f.last < WINDOW_MS ? f.count + 1 : 1;
    this.failures.set(k, { count, last: now });
  }

  succeeded(clientId: string, customerId: string): void {
    this.failures.delete(key(clientId, customerId));
  }
}

const key = (clientId: string, customerId: string): string => `${clientId}\u0000${customerId}`;
