import { describe, expect, it } from 'vitest';
import { backoffMs, judgeAttempt } from '../../src/webhooks/retry-policy.js';

describe('webhook retry policy', () => {
  it('retries every listed status, and stops on a redirect or 501', () => {
    for (const s of [408, 425, 429, 500, 502, 503, 504]) expect(judgeAttempt(s, 1)).toBe('retry');
    for (const s of [301, 302, 400, 401, 403, 404, 409, 410, 422, 501, 505]) expect(judgeAttempt(s, 1)).toBe('failed');
    expect(judgeAttempt(null, 1)).toBe('retry');
    expect(judgeAttempt(503, 10)).toBe('retry');
    expect(judgeAttempt(503, 11)).toBe('failed');
    expect(judgeAttempt(204, 11)).toBe('delivered');
  });

  it('backs off exponentially up to the cap, with jitter in the upper half of each step', () => {
    const settings = { baseMs: 100, capMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, settings, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, settings, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});
