import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ingestFile } from '../../src/ingest/file-source.js';
import { fixturePath } from '../helpers/store.js';
import { REFERENCE, expectReferenceShape } from '../helpers/reference-shapes.js';
import { ServiceUnderTest, tempDbPath } from '../helpers/webhooks.js';

/**
 * Every operation afford shares with the reference API, called as a client
 * of that API calls it, and each answer checked against what the reference
 * requires of it. The affordability report is checked in its own tests.
 */
describe('the operations shared with the reference API, as its clients call them', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  let client: Record<string, string>;
  let customer: Record<string, string>;

  beforeAll(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
    for (const f of ['hand-computed.ndjson', 'api-customers.ndjson']) await ingestFile(service.pipeline, fixturePath(f), { batchRows: 1000 });
    client = await service.auth('client-a');
    customer = await service.auth('client-a', 'cust-1');
  });
  afterAll(async () => {
    await service.close();
    db.cleanup();
  });

  const call = async (method: string, path: string, headers: Record<string, string>, body?: string, contentType = 'application/json') => {
    const res = await fetch(`${service.base}${path}`, { method, headers: body === undefined ? headers : { ...headers, 'content-type': contentType }, body });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const expectOk = async <S extends z.ZodType>(status: number, shape: S, res: Promise<{ status: number; body: unknown }>): Promise<z.output<S>> => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return expectReferenceShape(shape, r.body);
  };

  it('POST /v1/oauth/token', async () => {
    const basic = { authorization: `Basic ${Buffer.from('client-a:client-a-secret').toString('base64')}`, 'x-client-id': 'client-a' };
    await expectOk(200, REFERENCE.token, call('POST', '/v1/oauth/token', basic, 'grant_type=client_credentials', 'application/x-www-form-urlencoded'));
  });

  it('the five bucket definition operations', async () => {
    const definition = JSON.stringify({
      name: 'housing-and-food',
      categorisation_model: 'uk-v2',
      buckets: [{ bucket_l1: 'housing', criteria: [{ bucket_l2: 'rent', category_l1: 'mortgage_and_rent', category_l2: 'rent' }] }],
    });
    const created = await call('POST', '/aggregations/v2/buckets', client, definition);
    expect(created.status).toBe(201);
    const id = (created.body as { data: { bucket_id: string } }).data.bucket_id;
    await expectOk(200, REFERENCE.bucketList, call('GET', '/aggregations/v2/buckets', client));
    await expectOk(200, REFERENCE.bucketDetail, call('GET', `/aggregations/v2/buckets/${id}?bucket_lookup&category_lookup&unbucketed_categories`, client));
    await expectOk(200, REFERENCE.bucketDetail, call('GET', '/aggregations/v2/buckets/core-dashboard', client));
    expect(await call('PUT', `/aggregations/v2/buckets/${id}`, client, definition)).toEqual({ status: 204, body: undefined });
    expect(await call('DELETE', `/aggregations/v2/buckets/${id}`, client)).toEqual({ status: 204, body: undefined });
  });

  it('GET /aggregations/v2/buckets/{bucket_id}/totals', async () => {
    await expectOk(200, REFERENCE.bucketTotals, call('GET', '/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1,month&month_from=2024-01&month_to=2024-03&timezone=Etc/UTC', customer));
  });

  it('GET /financial/v2/transactions, and with updated_after', async () => {
    await expectOk(200, REFERENCE.transactions, call('GET', '/financial/v2/transactions?status=booked&status=pending&status=declined', customer));
    const synced = await expectOk(200, REFERENCE.transactions, call('GET', '/financial/v2/transactions?updated_after=2000-01-01T00:00:00Z', customer));
    expect(synced.metadata.deleted).toEqual([]);
  });

  it('GET /financial/v2/accounts', async () => {
    await expectOk(200, REFERENCE.accounts, call('GET', '/financial/v2/accounts', customer));
  });

  it('GET /core/v1/customer-applications/{application_id}', async () => {
    await expectOk(200, REFERENCE.customerApplication, call('GET', '/core/v1/customer-applications/app-1', client));
  });

  it('GET /resources/v2/categories, flat and map, and GET /resources/v2/categories/models', async () => {
    await expectOk(200, REFERENCE.categories, call('GET', '/resources/v2/categories', client));
    await expectOk(200, REFERENCE.categories, call('GET', '/resources/v2/categories?format=map', client));
    await expectOk(200, REFERENCE.categoryModels, call('GET', '/resources/v2/categories/models', client));
  });

  it('GET /aggregations/v2/totals/categories', async () => {
    await expectOk(200, REFERENCE.categoryTotals, call('GET', '/aggregations/v2/totals/categories?from=2024-01&to=2024-03&include_l2=true', customer));
  });

  it('POST /v1/open-banking/refresh and GET /v1/open-banking/refresh/{task_id}', async () => {
    const started = await expectOk(202, REFERENCE.refreshStarted, call('POST', '/v1/open-banking/refresh', customer, JSON.stringify({ provider: 'Monzo' })));
    await expectOk(200, REFERENCE.refreshTask, call('GET', `/v1/open-banking/refresh/${started.data.task_id}`, customer));
    await service.runtime.refresh.settled(started.data.task_id);
    await expectOk(200, REFERENCE.refreshTask, call('GET', `/v1/open-banking/refresh/${started.data.task_id}`, customer));
  });

  it('POST /v2/ingest/transactions in the v3 format, then its status', async () => {
    const body = JSON.stringify([
      { customer_id: 'c3339af9-2426-44d4-9c4d-ddb8fd281e23', transactions: [{ transaction_id: 'v3-1', account_id: 'acc-9', description: 'TESCO', amount: '-12.30', date_time: '2024-03-05T10:00:00Z' }] },
    ]);
    const accepted = await expectOk(202, REFERENCE.ingestAccepted, call('POST', '/v2/ingest/transactions', client, body, 'application/bud-transaction-v3+json'));
    await expectOk(200, REFERENCE.ingestStatus, call('GET', accepted.metadata.next_url ?? '', client));
  });
});
