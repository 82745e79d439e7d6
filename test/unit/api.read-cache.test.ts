import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/api/cache/read-cache.js';

const answer = (text: string) => ({ body: Buffer.from(text), headers: [] });
const A = { clientId: 'c', customerId: 'a' };
const B = { clientId: 'c', customerId: 'b' };

describe('ReadCache', () => {
  it('does not keep an answer whose read began before a change of its customer was announced', () => {
    const cache = new ReadCache(1024 * 1024);
    const readFrom = cache.begin();
    cache.invalidate({ kind: 'customers', customers: [A] });
    cache.keepAnswer('k', A, readFrom, answer('old'));
    expect(cache.answer('k')).toBeUndefined();
  });

  it("drops a customer's answers on a change of that customer, of its client, or of everything, and no one else's", () => {
    const cache = new ReadCache(1024 * 1024);
    const keep = () => {
      cache.keepAnswer('a', A, cache.begin(), answer('a'));
      cache.keepAnswer('b', B, cache.begin(), answer('b'));
    };
    keep();
    cache.invalidate({ kind: 'customers', customers: [A] });
    expect([cache.answer('a'), cache.answer('b')?.body.toString()]).toEqual([undefined, 'b']);
    keep();
    cache.invalidate({ kind: 'clients', clientIds: ['other'] });
    expect(cache.answer('a')?.body.toString()).toBe('a');
    cache.invalidate({ kind: 'clients', clientIds: ['c'] });
    expect([cache.answer('a'), cache.answer('b')]).toEqual([undefined, undefined]);
    keep();
    cache.invalidate({ kind: 'everything' });
    expect([cache.answer('a'), cache.answer('b')]).toEqual([undefined, undefined]);
  });

  it('holds at most its size in bytes, dropping the least recently used', () => {
    const cache = new ReadCache(3000);
    for (const key of ['x', 'y', 'z']) cache.keepAnswer(key, A, cache.begin(), answer('.'.repeat(1000)));
    expect(cache.size).toBeLessThanOrEqual(3000);
    expect(cache.answer('x')).toBeUndefined();
    expect(cache.answer('z')).toBeDefined();
  });
});
