import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientsService } from '../../src/clients/clients.service.js';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { queryFile } from '../../src/db/script.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { startLoggedService, type LoggedService } from '../helpers/logged-service.js';
import { httpText, rawRequest } from '../helpers/raw-http.js';
import { fixturePath } from '../helpers/store.js';

const CUSTOMER_SECRET = 'cust-2-secret-0123456789';
const WRONG_CUSTOMER_SECRET = 'wrong-customer-secret-5f3a9c';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TOTALS = '/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1&month_from=2024-01&month_to=2024-03';

describe('logs at trace level', () => {
  let svc: LoggedService;
  let log = '';
  const secrets: Record<string, string> = {};

  const call = async (method: string, url: string, headers: Record<string, string>, body?: string) => {
    const res = await fetch(`${svc.base}${url}`, { method, headers, body });
    await res.text();
    return res.status;
  };

  beforeAll(async () => {
    svc = await startLoggedService('trace');
    const { service, base } = svc;
    await ingestFile(service.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 1000 });
    await ingestFile(service.pipeline, fixturePath('api-customers.ndjson'), { batchRows: 1000 });
    const clients = new ClientsService(new ClientsRepository(service.store));
    const client = await clients.create('logged', 'client-a');
    secrets['client secret'] = client.client_secret;
    secrets['customer secret'] = CUSTOMER_SECRET;
    secrets['wrong customer secret'] = WRONG_CUSTOMER_SECRET;
    const keys = await service.store.read((conn) => queryFile<{ secret: string }>(conn, 'queries/api/get-signing-key'));
    secrets['token signing key'] = keys[0]?.secret ?? 'missing';

    const basic = `Basic ${Buffer.from(`client-a:${client.client_secret}`).toString('base64')}`;
    secrets['basic credentials'] = basic.slice('Basic '.length);
    // The secret in the Basic header, and again in the form body (client_secret_post).
    const tokenRes = await fetch(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { ...FORM, authorization: basic, 'x-client-id': 'client-a' },
      body: `grant_type=client_credentials&client_secret=${client.client_secret}`,
    });
    const tokens = ((await tokenRes.json()) as { data: { access_token: string; refresh_token: string } }).data;
    secrets['access token'] = tokens.access_token;
    secrets['refresh token'] = tokens.refresh_token;
    const bearer = { authorization: `Bearer ${tokens.access_token}`, 'x-client-id': 'client-a' };

    const statuses = [
      // A refresh token in a form body.
      await call('POST', '/v1/oauth/token', { ...FORM, 'x-client-id': 'client-a' }, `grant_type=refresh_token&refresh_token=${tokens.refresh_token}`),
      // Headers: the token and a customer's secret, right and wrong.
      await call('GET', TOTALS, { ...bearer, 'x-customer-id': 'cust-2', 'x-customer-secret': CUSTOMER_SECRET }),
      await call('GET', TOTALS, { ...bearer, 'x-customer-id': 'cust-2', 'x-customer-secret': WRONG_CUSTOMER_SECRET }),
      // Credentials in a query string, on a known route, an unknown one and a path that is not valid percent-encoding.
      await call('GET', `${TOTALS}&access_token=${tokens.access_token}&client_secret=${client.client_secret}`, { 'x-client-id': 'client-a' }),
      await call('GET', `/nope?token=${tokens.access_token}&customer_secret=${CUSTOMER_SECRET}`, {}),
      await call('GET', `/aggregations/v2/buckets/%E0%A4%A?access_token=${tokens.access_token}`, bearer),
      // A body that is not JSON, holding a secret.
      await call('POST', '/aggregations/v2/buckets', { ...bearer, 'content-type': 'application/json' }, `{"client_secret": "${client.client_secret}", x`),
      // HTTP ingest carrying a customer secret in an unknown field.
      await call('POST', '/v2/ingest/transactions', { ...bearer, 'content-type': 'application/json' }, JSON.stringify([{ customer_id: 'cust-1', customer_secret: CUSTOMER_SECRET, transactions: [{ customer_secret: CUSTOMER_SECRET }] }])),
    ];
    expect(statuses).toEqual([200, 200, 401, 401, 404, 400, 400, 400]);
    // Requests Node's parser refuses: its error carries the raw bytes, credentials included.
    const big = await rawRequest(base, httpText('GET', '/healthz', { authorization: `Bearer ${tokens.access_token}`, 'x-customer-secret': CUSTOMER_SECRET, 'x-pad': 'p'.repeat(20_000) }));
    const bad = await rawRequest(base, `GET /?access_token=${tokens.access_token} HTTP/1.1\r\nX-Customer-Secret: ${CUSTOMER_SECRET}\r\nBad Header\r\n\r\n`);
    expect([big.status, bad.status]).toEqual([431, 400]);

    const rotated = await clients.rotateSecret('client-a', 'logged');
    secrets['rotated client secret'] = rotated?.client_secret ?? 'missing';
    log = await svc.stop();
  });
  afterAll(() => svc.cleanup());

  it('logged the requests (so that the scan below means something)', () => {
    expect(log).toContain('"level":20');
    expect(log).toContain('incoming request');
    expect(log).toContain('"url":"/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1&month_from=2024-01&month_to=2024-03&access_token=[redacted]&client_secret=[redacted]"');
    expect(log).toContain('malformed request rejected');
  });

  it('holds none of the secrets given in headers, query strings, bodies or raw requests', () => {
    const found = Object.entries(secrets).filter(([, value]) => log.includes(value)).map(([name]) => name);
    expect(found).toEqual([]);
  });
});
