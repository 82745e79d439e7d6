import { describe, expect, it } from 'vitest';
import { customerKey } from '../../src/domain/customer-ref.js';

describe('customerKey', () => {
  it('gives the same key for the same client and customer', () => {
    expect(customerKey('client-1', 'cust-1')).toBe(customerKey('client-1', 'cust-1'));
  });

  it('never gives two pairs the same key, whatever the ids hold', () => {
    const ids = ['', 'a', 'b', ':', 'a:', ':b', 'a:b', '1:a', '1', '2:a:b', 'a\u0000b', '"', '["a","b"]', 'é', '💷'];
    const keys = new Map<string, [string, string]>();
    for (const client of ids) {
      for (const customer of ids) {
        const key = customerKey(client, customer);
        expect(keys.get(key), `${JSON.stringify([client, customer])} and ${JSON.stringify(keys.get(key))}`).toBeUndefined();
        keys.set(key, [client, customer]);
      }
    }
    expect(keys.size).toBe(ids.length * ids.length);
  });
});
