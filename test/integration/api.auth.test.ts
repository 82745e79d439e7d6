import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketCreatedResponse } from '../../src/api/schemas/buckets.schemas.js';
import { tokenResponse } from '../../src/api/schemas/oauth.schemas.js';
import { CORE_DASHBOARD } from '../../src/domain/core-dashboard.js';
import { GENERIC_401, GENERIC_404, TEST_TOKEN_SECRET, authHeaders, expectSchema, startApi, type ApiHarness, validationBody } from '../helpers/api.js';

const TOTALS = '/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1&month_from=2024-01&month_to=2024-03';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function signed(claims: Record<string, unknown>, sub: string, exp: number, secret = TEST_TOKEN_SECRET): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('afford')
    .setSubject(sub)
    .setIssuedAt(exp - 3600)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

describe('API auth and tenancy', () => {
  let api: ApiHarness;
  let tokenA: string;
  let refreshA: string;
  let tokenB: string;
  let secretA: string;

  beforeAll(async () => {
    api = await startApi({ fixtures: ['hand-computed.ndjson', 'api-customers.ndjson'] });
    const a = await api.createClient('client-a');
    const b = await api.createClient('client-b');
    secretA = a.client_secret;
    ({ access_token: tokenA, refresh_token: refreshA } = await api.token(a));
    tokenB = (await api.token(b)).access_token;
  });
  afterAll(async () => api.close());

  describe('POST /v1/oauth/token', () => {
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

    it('issues a Bearer token for client credentials, in the envelope', async () => {
      const res = await api.call('POST', '/v1/oauth/token', {
        headers: { ...FORM, authorization: basic('client-a', secretA), 'X-Client-Id': 'client-a' },
        body: 'grant_type=client_credentials',
      });
      expect(res.status).toBe(200);
      const body = expectSchema(tokenResponse, res.body);
      expect(body.data.token_type).toBe('Bearer');
      expect(body.data.expires_in).toBe(3600);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('refreshes with a refresh token and no Basic auth', async () => {
      const res = await api.call('POST', '/v1/oauth/token', {
        headers: { ...FORM, 'x-client-id': 'client-a' },
        body: `grant_type=refresh_token&refresh_token=${refreshA}`,
      });
      expect(res.status).toBe(200);
      const body = expectSchema(tokenResponse, res.body);
      const ok = await api.call('GET', '/aggregations/v2/buckets', { headers: authHeaders(body.data.access_token, 'client-a') });
      expect(ok.status).toBe(200);
    });

    describe('a chain of refresh tokens ends 30 days after the client credentials that began it', () => {
      const DAYS_30 = 30 * 24 * 3600;
      const claims = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as Record<string, unknown>;
      const refresh = (token: string) =>
        api.call('POST', '/v1/oauth/token', { headers: { ...FORM, 'x-client-id': 'client-a' }, body: `grant_type=refresh_token&refresh_token=${token}` });
      const refreshed = async (token: string): Promise<Record<string, unknown>> => {
        const res = await refresh(token);
        expect(res.status).toBe(200);
        return claims(expectSchema(tokenResponse, res.body).data.refresh_token);
      };

      it('the client credentials begin a chain: the refresh token ends 30 days later', () => {
        const first = claims(refreshA);
        expect(first['exp']).toBe((first['cs'] as number) + DAYS_30);
        expect(first['cs']).toBe(first['iat']);
      });

      it('a refresh gives a refresh token that ends when the first of its chain did, not 30 days after the refresh', async () => {
        const now = Math.floor(Date.now() / 1000);
        // A chain begun a day ago.
        const began = now - 24 * 3600;
        const next = await refreshed(await signed({ use: 'refresh', cs: began }, 'client-a', began + DAYS_30));
        expect(next['cs']).toBe(began);
        expect(next['exp']).toBe(began + DAYS_30);
        // And again from that one: the chain's end does not move.
        const res = await refresh(await signed({ use: 'refresh', cs: began }, 'client-a', began + DAYS_30));
        expect(claims(expectSchema(tokenResponse, res.body).data.refresh_token)['exp']).toBe(began + DAYS_30);
      });

      it('a refresh token made before tokens carried their chain began its chain when it was issued', async () => {
        const exp = Math.floor(Date.now() / 1000) + 600;
        // signed() issues it an hour before it expires.
        const next = await refreshed(await signed({ use: 'refresh' }, 'client-a', exp));
        expect(next['cs']).toBe(exp - 3600);
        expect(next['exp']).toBe(exp - 3600 + DAYS_30);
      });

      it('refuses a refresh token, still unexpired, whose chain has ended, with the generic 401 body', async () => {
        const now = Math.floor(Date.now() / 1000);
        const res = await refresh(await signed({ use: 'refresh', cs: now - DAYS_30 - 5 }, 'client-a', now + 600));
        expect(res.status).toBe(401);
        expect(res.body).toEqual(GENERIC_401);
      });
    });

    it.each([
      ['a wrong secret', { authorization: basic('client-a', 'wrong'), 'x-client-id': 'client-a' }, 'grant_type=client_credentials'],
      ['an unknown client', { authorization: basic('client-z', 'whatever'), 'x-client-id': 'client-z' }, 'grant_type=client_credentials'],
      ['no X-Client-Id', { authorization: basic('client-a', 'x') }, 'grant_type=client_credentials'],
      ['a mismatched X-Client-Id', { authorization: basic('client-a', 'x'), 'x-client-id': 'client-b' }, 'grant_type=client_credentials'],
      ['an access token used as refresh token', { 'x-client-id': 'client-a' }, 'grant_type=refresh_token&refresh_token=ACCESS'],
      ['a refresh token of another client', { 'x-client-id': 'client-b' }, 'grant_type=refresh_token&refresh_token=REFRESH'],
    ])('answers the generic 401 body for %s', async (_name, headers, body) => {
      const res = await api.call('POST', '/v1/oauth/token', {
        headers: { ...FORM, ...headers },
        body: body.replace('ACCESS', tokenA).replace('REFRESH', refreshA),
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(GENERIC_401);
    });

    it('answers 400 failed_validation for a missing or unknown grant_type', async () => {
      const res = await api.call('POST', '/v1/oauth/token', { headers: { ...FORM, 'x-client-id': 'client-a' }, body: 'grant_type=password' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationBody('oauth_token_post', { grant_type: 'must be client_credentials or refresh_token' }));
    });
  });

  describe('bearer tokens', () => {
    const call = (headers: Record<string, string>) => api.call('GET', '/aggregations/v2/buckets', { headers });

    it('accepts a valid token whose client matches X-Client-ID (any header case)', async () => {
      expect((await call({ authorization: `Bearer ${tokenA}`, 'X-Client-Id': 'client-a' })).status).toBe(200);
      expect((await call({ authorization: `Bearer ${tokenA}`, 'X-CLIENT-ID': 'client-a' })).status).toBe(200);
    });

    it.each<[string, () => Promise<Record<string, string>>]>([
      ['no Authorization', async () => ({ 'x-client-id': 'client-a' })],
      ['a malformed Authorization', async () => ({ authorization: `Token ${tokenA}`, 'x-client-id': 'client-a' })],
      ['a token that is not a JWT', async () => ({ authorization: 'Bearer not-a-token', 'x-client-id': 'client-a' })],
      ['an expired token', async () => ({ authorization: `Bearer ${await signed({ use: 'access' }, 'client-a', Math.floor(Date.now() / 1000) - 10)}`, 'x-client-id': 'client-a' })],
      ['a token signed with another key', async () => ({ authorization: `Bearer ${await signed({ use: 'access' }, 'client-a', Math.floor(Date.now() / 1000) + 600, 'x'.repeat(40))}`, 'x-client-id': 'client-a' })],
      ['a tampered payload', async () => {
        const [h, , s] = tokenA.split('.');
        const payload = Buffer.from(JSON.stringify({ use: 'access', iss: 'afford', sub: 'client-b', exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url');
        return { authorization: `Bearer ${h}.${payload}.${s}`, 'x-client-id': 'client-b' };
      }],
      ['a tampered signature', async () => ({ authorization: `Bearer ${tokenA.slice(0, -4)}AAAA`, 'x-client-id': 'client-a' })],
      // Signed with the right key but never expiring: afford issues none such, and would accept it for ever.
      ['a token without exp', async () => ({
        authorization: `Bearer ${await new SignJWT({ use: 'access' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('afford').setSubject('client-a').setIssuedAt().sign(new TextEncoder().encode(TEST_TOKEN_SECRET))}`,
        'x-client-id': 'client-a',
      })],
      ['a refresh token used as access token', async () => ({ authorization: `Bearer ${refreshA}`, 'x-client-id': 'client-a' })],
      ['no X-Client-ID', async () => ({ authorization: `Bearer ${tokenA}` })],
      ['a client-ID mismatch', async () => ({ authorization: `Bearer ${tokenA}`, 'x-client-id': 'client-b' })],
    ])('answers the generic 401 body for %s', async (_name, headers) => {
      const res = await call(await headers());
      expect(res.status).toBe(401);
      expect(res.body).toEqual(GENERIC_401);
    });

    it('checks auth before reading the body', async () => {
      const res = await api.call('POST', '/aggregations/v2/buckets', { headers: { 'x-client-id': 'client-a', 'content-type': 'application/json' }, body: '{not json' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(GENERIC_401);
    });
  });

  describe('customers', () => {
    it('serves a hosted customer of the client with the customer id alone', async () => {
      const res = await api.call('GET', TOTALS, { headers: authHeaders(tokenA, 'client-a', 'cust-1') });
      expect(res.status).toBe(200);
    });

    it('answers 400 failed_validation naming X-Customer-ID when a customer call lacks it (a 401 would make a client refresh its token in a loop)', async () => {
      const cases: [string, string, string, string][] = [
        ['GET', TOTALS, 'aggregations_v2_bucket_totals_get', ''],
        ['GET', '/financial/v2/transactions', 'financial_v2_transactions_get', ''],
        ['GET', '/financial/v2/accounts', 'financial_v2_accounts', ''],
        ['GET', '/aggregations/v2/totals/categories', 'v2_category_totals_get', ''],
        ['GET', '/financial/v2/transactions', 'financial_v2_transactions_get', 'z'.repeat(201)],
      ];
      for (const [method, path, op, customer] of cases) {
        const headers = customer ? authHeaders(tokenA, 'client-a', customer) : authHeaders(tokenA, 'client-a');
        const res = await api.call(method, path, { headers });
        expect(res.status, path).toBe(400);
        expect(res.body).toEqual(validationBody(op, { 'X-Customer-ID': customer ? 'must be at most 200 characters' : 'is required' }));
      }
      // A bad token still comes first: 401, whatever the customer header.
      const res = await api.call('GET', TOTALS, { headers: { ...authHeaders('nope', 'client-a') } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(GENERIC_401);
    });

    it("answers 404 for another client's customer, exactly as for an unknown one", async () => {
      for (const path of [TOTALS, '/financial/v2/transactions', '/financial/v2/accounts', '/aggregations/v2/totals/categories']) {
        const other = await api.call('GET', path, { headers: authHeaders(tokenA, 'client-a', 'cust-9') });
        const unknown = await api.call('GET', path, { headers: authHeaders(tokenA, 'client-a', 'cust-nobody') });
        expect(other.status).toBe(404);
        expect(other.body).toEqual(GENERIC_404);
        expect(unknown.body).toEqual(other.body);
      }
      expect((await api.call('GET', TOTALS, { headers: authHeaders(tokenB, 'client-b', 'cust-9') })).status).toBe(200);
    });

    it('needs the right X-Customer-Secret for a customer that is not hosted', async () => {
      const without = await api.call('GET', TOTALS, { headers: authHeaders(tokenA, 'client-a', 'cust-2') });
      expect(without.status).toBe(401);
      expect(without.body).toEqual(GENERIC_401);
      const wrong = await api.call('GET', TOTALS, { headers: authHeaders(tokenA, 'client-a', 'cust-2', 'cust-2-secret-0123456780') });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual(GENERIC_401);
      const right = await api.call('GET', TOTALS, { headers: authHeaders(tokenA, 'client-a', 'cust-2', 'cust-2-secret-0123456789') });
      expect(right.status).toBe(200);
    });

    it("answers 404 for another client's application", async () => {
      expect((await api.call('GET', '/core/v1/customer-applications/app-1', { headers: authHeaders(tokenA, 'client-a') })).status).toBe(200);
      const other = await api.call('GET', '/core/v1/customer-applications/app-9', { headers: authHeaders(tokenA, 'client-a') });
      expect(other.status).toBe(404);
      expect(other.body).toEqual(GENERIC_404);
    });
  });

  describe('bucket definitions of another client', () => {
    it('are invisible: 404 on read, totals, replace and delete, and absent from the list', async () => {
      const created = await api.call('POST', '/aggregations/v2/buckets', { headers: authHeaders(tokenB, 'client-b'), body: { ...CORE_DASHBOARD, name: 'b-only' } });
      expect(created.status).toBe(201);
      const id = expectSchema(bucketCreatedResponse, created.body).data.bucket_id;
      const a = authHeaders(tokenA, 'client-a');
      for (const [method, path, body] of [
        ['GET', `/aggregations/v2/buckets/${id}`, undefined],
        ['GET', `/aggregations/v2/buckets/${id}/totals?group_by=bucket_l1`, undefined],
        ['PUT', `/aggregations/v2/buckets/${id}`, CORE_DASHBOARD],
        ['DELETE', `/aggregations/v2/buckets/${id}`, undefined],
        ['GET', `/financial/v2/transactions?bucket_id=${id}`, undefined],
      ] as const) {
        const res = await api.call(method, path, { headers: { ...a, 'x-customer-id': 'cust-1' }, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual(GENERIC_404);
      }
      const list = await api.call<{ data: Array<{ bucket_id: string }> }>('GET', '/aggregations/v2/buckets', { headers: a });
      expect(list.body.data.map((d) => d.bucket_id)).not.toContain(id);
      expect((await api.call('GET', `/aggregations/v2/buckets/${id}`, { headers: authHeaders(tokenB, 'client-b') })).status).toBe(200);
    });
  });

  describe('logs', () => {
    it('never carry a token, a client secret or a customer secret', async () => {
      await api.call('GET', TOTALS, { headers: authHeaders(tokenA, 'client-a', 'cust-2', 'cust-2-secret-0123456789') });
      await api.call('POST', '/v1/oauth/token', { headers: { ...FORM, 'x-client-id': 'client-a' }, body: `grant_type=refresh_token&refresh_token=${refreshA}` });
      const text = api.logs.join('');
      expect(text).toContain('"url":"/aggregations/v2/buckets/core-dashboard/totals');
      for (const secret of [tokenA, refreshA, tokenB, secretA, 'cust-2-secret-0123456789']) expect(text).not.toContain(secret);
      // A secret that ends up in a logged object by name is censored.
      api.app.log.info({ headers: { authorization: `Bearer ${tokenA}` }, refresh_token: refreshA }, 'probe');
      expect(api.logs.join('')).not.toContain(tokenA);
    });
  });
});
