import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_401, GENERIC_404, GENERIC_405, GENERIC_500, GENERIC_503, startApi, type ApiHarness, newClientHeaders } from '../helpers/api.js';

describe('API error bodies', () => {
  let api: ApiHarness;
  let headers: Record<string, string>;
  let ready = true;

  beforeAll(async () => {
    api = await startApi({
      fixtures: ['hand-computed.ndjson'],
      isReady: () => ready,
      beforeListen: (app) => {
        app.get('/test/boom', async () => {
          throw new Error('SELECT secret_hash FROM customers -- exploded');
        });
      },
    });
    headers = await newClientHeaders(api, 'client-a', 'cust-1');
  });
  afterAll(async () => api.close());

  it('answers the generic 404 body for an unknown route, with or without auth', async () => {
    for (const path of ['/nope', '/aggregations/v3/buckets', '/aggregations/v2/buckets/x/totals/y', '/']) {
      const res = await api.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(GENERIC_404);
    }
    expect((await api.call('GET', '/nope', { headers })).body).toEqual(GENERIC_404);
  });

  it('answers the generic 405 body for a known route with the wrong method, with Allow', async () => {
    for (const [method, path] of [
      ['DELETE', '/aggregations/v2/buckets'],
      ['PATCH', '/aggregations/v2/buckets/abc'],
      ['POST', '/financial/v2/transactions'],
      ['PUT', '/aggregations/v2/buckets/core-dashboard/totals'],
      ['GET', '/v1/oauth/token'],
    ] as const) {
      const res = await api.call(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.body).toEqual(GENERIC_405);
    }
    expect((await api.call('PATCH', '/aggregations/v2/buckets/abc')).headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('answers 500 with only the message for an unexpected failure, and logs it with its stack', async () => {
    const res = await api.call('GET', '/test/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual(GENERIC_500);
    const line = api.logs.find((l) => l.includes('exploded'));
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 50, err: { stack: expect.stringContaining('api.errors.test.ts') } });
  });

  it('keeps SQL errors from a real query out of the response', async () => {
    await api.store.write((conn) => conn.run('ALTER TABLE balances RENAME TO balances_gone').then(() => undefined));
    try {
      const res = await api.call('GET', '/financial/v2/accounts', { headers });
      expect(res.status).toBe(500);
      expect(res.body).toEqual(GENERIC_500);
      expect(api.logs.some((l) => l.includes('balances'))).toBe(true);
    } finally {
      await api.store.write((conn) => conn.run('ALTER TABLE balances_gone RENAME TO balances').then(() => undefined));
    }
    expect((await api.call('GET', '/financial/v2/accounts', { headers })).status).toBe(200);
  });

  it('answers 503 with only the message while the DB is not ready; /healthz still answers', async () => {
    ready = false;
    try {
      for (const path of ['/aggregations/v2/buckets', '/readyz', '/v1/oauth/token']) {
        const res = await api.call('GET', path, { headers });
        expect(res.status, path).toBe(503);
        expect(res.body).toEqual(GENERIC_503);
      }
      expect((await api.call('GET', '/healthz')).status).toBe(200);
    } finally {
      ready = true;
    }
    expect((await api.call('GET', '/readyz')).body).toEqual({ status: 'ready' });
  });

  it('checks auth before validation, and validation after auth', async () => {
    const unauth = await api.call('GET', '/financial/v2/transactions?page_size=0');
    expect(unauth.status).toBe(401);
    expect(unauth.body).toEqual(GENERIC_401);
    const bad = await api.call('GET', '/financial/v2/transactions?page_size=0', { headers });
    expect(bad.status).toBe(400);
  });

  it('answers 415 in the error format of the interface for a body that is neither JSON nor a form, 400 for plain text', async () => {
    const text = await api.call('POST', '/aggregations/v2/buckets', { headers: { ...headers, 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ code_id: 'failed_validation', errors: { body: 'must be a valid object' } });
    const res = await api.call('POST', '/aggregations/v2/buckets', { headers: { ...headers, 'content-type': 'application/xml' }, body: '<a/>' });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ operation_id: 'aggregations_v2_buckets_post', code_id: 'request_validation', errors: {} });
  });
});

describe('a request that finds the store closed (the service is stopping)', () => {
  it('answers 503 with only the message, not a 500', async () => {
    const api = await startApi({ fixtures: ['hand-computed.ndjson'] });
    try {
      const headers = await newClientHeaders(api, 'client-a', 'cust-1');
      expect((await api.call('GET', '/financial/v2/accounts', { headers })).status).toBe(200);
      await api.store.close();
      const res = await api.call('GET', '/financial/v2/accounts', { headers });
      expect(res.status).toBe(503);
      expect(res.body).toEqual(GENERIC_503);
    } finally {
      await api.close();
    }
  });
});
