import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILED_ATTEMPTS, SecretAttempts, WINDOW_MS } from '../../src/api/auth/secret-attempts.js';
import { authHeaders, startApi, type ApiHarness } from '../helpers/api.js';

const SECRET = 'cust-2-secret-0123456789';

describe('guessing a customer’s secret', () => {
  let api: ApiHarness;
  let token: string;
  const accounts = (customer: string, secret?: string) => api.call('GET', '/financial/v2/accounts', { headers: authHeaders(token, 'client-a', customer, secret) });

  beforeAll(async () => {
    api = await startApi({ fixtures: ['hand-computed.ndjson', 'api-customers.ndjson'] });
    token = (await api.token(await api.createClient('client-a'))).access_token;
  });
  afterAll(async () => api.close());

  it('is refused with 429 after ten wrong secrets, the right one included, while other customers answer', async () => {
    const ok = await accounts('cust-2', SECRET);
    expect(ok.status).toBe(200);
    // A customer's data is never kept by a cache between afford and the lender.
    expect(ok.headers.get('cache-control')).toBe('no-store');
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
      const wrong = await accounts('cust-2', i % 2 === 0 ? `guess-${i}` : undefined);
      expect(wrong.status, `attempt ${i + 1}`).toBe(401);
    }
    const locked = await accounts('cust-2', SECRET);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ operation_id: 'unknown', code_id: 'too_many_requests', message: 'Too many failed attempts: try again later', errors: {} });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(WINDOW_MS / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
    // A hosted customer of the same client, and the token itself, are untouched.
    expect((await accounts('cust-1')).status).toBe(200);
  });
});

describe('the count of failed secrets', () => {
  it('forgets failures older than the window, locks at the limit until the window has passed, and clears on a success', () => {
    let now = 1_000_000;
    const attempts = new SecretAttempts(() => now);
    for (let i = 0; i < MAX_FAILED_ATTEMPTS - 1; i++) attempts.failed('c', 'x');
    expect(attempts.lockedFor('c', 'x')).toBe(0);
    // A success before the limit starts the count again.
    attempts.succeeded('c', 'x');
    for (let i = 0; i < MAX_FAILED_ATTEMPTS - 1; i++) attempts.failed('c', 'x');
    expect(attempts.lockedFor('c', 'x')).toBe(0);
    // Failures spread wider than the window never add up to a lock.
    now += WINDOW_MS;
    attempts.failed('c', 'x');
    expect(attempts.lockedFor('c', 'x')).toBe(0);
    for (let i = 0; i < MAX_FAILED_ATTEMPTS - 1; i++) attempts.failed('c', 'x');
    expect(attempts.lockedFor('c', 'x')).toBe(WINDOW_MS / 1000);
    expect(attempts.lockedFor('c', 'y')).toBe(0);
    expect(attempts.lockedFor('other-client', 'x')).toBe(0);
    now += WINDOW_MS - 1500;
    expect(attempts.lockedFor('c', 'x')).toBe(2);
    now += 1500;
    expect(attempts.lockedFor('c', 'x')).toBe(0);
  });
});
