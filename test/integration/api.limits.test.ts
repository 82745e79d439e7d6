import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FIELD_ERRORS } from '../../src/api/limits.js';
import { GENERIC_401, authHeaders, startApi, type ApiHarness } from '../helpers/api.js';

const long = (n: number) => 'a'.repeat(n);

describe('API size limits', () => {
  let api: ApiHarness;
  let token: string;
  let customer: Record<string, string>;

  beforeAll(async () => {
    api = await startApi({ fixtures: ['hand-computed.ndjson'] });
    token = (await api.token(await api.createClient('client-a'))).access_token;
    customer = authHeaders(token, 'client-a', 'cust-1');
  });
  afterAll(async () => api.close());

  it('lists at most 50 field errors, then how many more there were', async () => {
    const criteria = Array.from({ length: 300 }, () => ({ bucket_l2: 'Not Snake', category_l1: 'food', category_l2: 'groceries' }));
    const res = await api.call<{ errors: Record<string, string> }>('POST', '/aggregations/v2/buckets', {
      headers: authHeaders(token, 'client-a'),
      body: { name: 'many', categorisation_model: 'uk-v2', buckets: [{ bucket_l1: 'one', criteria }] },
    });
    expect(res.status).toBe(400);
    const keys = Object.keys(res.body.errors);
    expect(keys).toHaveLength(MAX_FIELD_ERRORS + 1);
    // Each criterion has two faults, both named: a bucket_l2 that is not snake case and an unknown category pair.
    expect(res.body.errors['_more']).toBe(`${2 * 300 - MAX_FIELD_ERRORS} more fields are invalid and not listed`);
    // The log line of the rejection is capped the same way.
    const line = api.logs.find((l) => l.includes('"_more"'));
    expect(line?.length ?? Infinity).toBeLessThan(20_000);
  });

  it('refuses query values over 200 characters and lists over 50 values', async () => {
    const cases: Array<[string, string]> = [
      [`category_l1=${long(201)}`, 'category_l1'],
      [`account_id=${long(201)}`, 'account_id'],
      [`include_tags=${Array.from({ length: 51 }, (_, i) => `t${i}`).join(',')}`, 'include_tags'],
      [`exclude_tags=${long(201)}`, 'exclude_tags'],
      [`bucket_id=${long(201)}`, 'bucket_id'],
    ];
    for (const [query, field] of cases) {
      const res = await api.call<{ code_id: string; errors: Record<string, string> }>('GET', `/financial/v2/transactions?${query}`, { headers: customer });
      expect(res.status, query.slice(0, 40)).toBe(400);
      expect(res.body.code_id).toBe('failed_validation');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect((await api.call('GET', `/financial/v2/transactions?category_l1=${long(200)}`, { headers: customer })).status).toBe(200);
  });

  it('refuses path ids over 200 characters with a validation error, and reads ids of 200', async () => {
    const res = await api.call<{ errors: Record<string, string> }>('GET', `/aggregations/v2/buckets/${long(201)}`, { headers: authHeaders(token, 'client-a') });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ bucket_id: 'must be at most 200 characters' });
    // 200 characters of 3-byte UTF-8, percent-encoded: 1,800 bytes in the path, still routed (and not found).
    const unicode = encodeURIComponent('€'.repeat(200));
    expect((await api.call('GET', `/aggregations/v2/buckets/${unicode}`, { headers: authHeaders(token, 'client-a') })).status).toBe(404);
  });

  it('treats a client id header over 200 characters as absent, and refuses such a customer id header by name', async () => {
    const res = await api.call('GET', '/financial/v2/transactions', { headers: authHeaders(token, long(201)) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(GENERIC_401);
    const customer = await api.call('GET', '/financial/v2/transactions', { headers: authHeaders(token, 'client-a', long(201)) });
    expect(customer.status).toBe(400);
    expect(customer.body).toMatchObject({ code_id: 'failed_validation', errors: { 'X-Customer-ID': 'must be at most 200 characters' } });
  });

  it('refuses bucket definition strings over 200 characters', async () => {
    const res = await api.call<{ errors: Record<string, string> }>('POST', '/aggregations/v2/buckets', {
      headers: authHeaders(token, 'client-a'),
      body: { name: 'x', categorisation_model: long(201), buckets: [{ bucket_l1: 'one', criteria: [{ bucket_l2: 'two', category_l1: long(201), category_l2: 'groceries' }] }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      categorisation_model: 'must be at most 200 characters',
      'buckets[0].criteria[0].category_l1': 'must be at most 200 characters',
    });
  });
});
