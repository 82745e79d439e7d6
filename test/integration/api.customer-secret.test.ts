import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, GENERIC_401, startApi, type ApiHarness } from '../helpers/api.js';
import { rows } from '../helpers/store.js';
import { transactionEvent } from '../helpers/webhooks.js';

/**
 * A customer's secret is fixed by its first event. Later events without a
 * secret (an application included) never make the customer hosted; one with
 * another secret is a dead letter and changes nothing.
 */
const CLIENT = 'client-s';
const CUSTOMER = 'cust-secret';
const SECRET = 'the-right-secret-0123456789';

const withSecret = (event: object, secret: string) => ({ ...event, customer_secret: secret });

function application(applicationId: string) {
  return {
    event_id: `ev-app-${applicationId}`,
    type: 'application.upserted',
    occurred_at: '2024-03-01T00:00:00Z',
    client_id: CLIENT,
    customer_id: CUSTOMER,
    data: { application_id: applicationId, creation_date: '2024-03-01T00:00:00Z', primary_applicant: { first_name: 'Sam', last_name: 'Lee' } },
  };
}

describe('a customer with a secret', () => {
  let api: ApiHarness;
  let token: string;

  const ingest = (events: object[]) =>
    api.pipeline.ingest(events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file' as const, sourceRef: 'secret-test', lineNumber: i + 1 } })));
  const list = (secret?: string) => api.call('GET', '/financial/v2/transactions', { headers: authHeaders(token, CLIENT, CUSTOMER, secret) });

  beforeAll(async () => {
    api = await startApi();
    token = (await api.token(await api.createClient(CLIENT))).access_token;
    const first = await ingest([withSecret(transactionEvent(CLIENT, CUSTOMER, 't-1'), SECRET)]);
    expect(first).toMatchObject({ inserted: 1, deadLetters: [] });
  });
  afterAll(async () => api.close());

  it('is not made hosted by an application.upserted without a secret', async () => {
    expect((await list()).status).toBe(401);
    const result = await ingest([application('app-1')]);
    expect(result).toMatchObject({ inserted: 1, deadLetters: [] });
    expect(await rows(api.store, `SELECT hosted FROM customers WHERE customer_id = '${CUSTOMER}'`)).toEqual([{ hosted: false }]);

    expect(await list()).toMatchObject({ status: 401, body: GENERIC_401 });
    expect((await list('a-wrong-secret')).status).toBe(401);
    expect((await list(SECRET)).status).toBe(200);
  });

  it('keeps its secret when an event brings another one: that event is a dead letter', async () => {
    const result = await ingest([
      withSecret(application('app-2'), 'another-secret-0123456789'),
      withSecret(transactionEvent(CLIENT, CUSTOMER, 't-2'), 'another-secret-0123456789'),
      withSecret(transactionEvent(CLIENT, CUSTOMER, 't-3'), SECRET),
      transactionEvent(CLIENT, CUSTOMER, 't-4'),
    ]);
    expect(result).toMatchObject({ read: 4, inserted: 2 });
    expect(result.deadLetters.map((d) => [d.ref.lineNumber, d.reason])).toEqual([
      [1, "customer_secret: does not match the customer's secret"],
      [2, "customer_secret: does not match the customer's secret"],
    ]);
    expect((await list('another-secret-0123456789')).status).toBe(401);
    const ok = await list(SECRET);
    expect(ok.status).toBe(200);
    expect((ok.body as { data: Array<{ transaction_id: string }> }).data.map((t) => t.transaction_id).sort()).toEqual(['t-1', 't-3', 't-4']);
    expect(await rows(api.store, "SELECT count(*)::INTEGER AS n FROM customer_applications WHERE application_id = 'app-2'")).toEqual([{ n: 0 }]);
  });
});

describe('a hosted customer', () => {
  let api: ApiHarness;
  let token: string;
  const HOSTED = 'cust-hosted';
  const ingest = (events: object[]) =>
    api.pipeline.ingest(events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file' as const, sourceRef: 'hosted-test', lineNumber: i + 1 } })));
  const ids = async (customer: string) =>
    ((await api.call('GET', '/financial/v2/transactions', { headers: authHeaders(token, CLIENT, customer) })).body as { data: Array<{ transaction_id: string }> }).data.map((t) => t.transaction_id).sort();

  beforeAll(async () => {
    api = await startApi();
    token = (await api.token(await api.createClient(CLIENT))).access_token;
  });
  afterAll(async () => api.close());

  it('takes no secret later: an event that brings one is a dead letter, so data sent with a secret is never readable without it', async () => {
    // Made hosted by its first event (say, a caller holding the client's credentials getting there first).
    expect(await ingest([transactionEvent(CLIENT, HOSTED, 'h-1')])).toMatchObject({ inserted: 1, deadLetters: [] });
    const result = await ingest([
      withSecret(transactionEvent(CLIENT, HOSTED, 'h-2'), SECRET),
      transactionEvent(CLIENT, HOSTED, 'h-3'),
    ]);
    expect(result.deadLetters.map((d) => [d.ref.lineNumber, d.reason])).toEqual([[1, "customer_secret: does not match the customer's secret"]]);
    expect(await ids(HOSTED)).toEqual(['h-1', 'h-3']);
  });

  it('is judged the same on the fast path, where a batch of thousands of events is checked from its bytes', async () => {
    const customer = 'cust-hosted-fast';
    expect(await ingest([transactionEvent(CLIENT, customer, 'f-0')])).toMatchObject({ inserted: 1, deadLetters: [] });
    const events = Array.from({ length: 2500 }, (_, i) => (i % 1000 === 7 ? withSecret(transactionEvent(CLIENT, customer, `f-${i + 1}`), SECRET) : transactionEvent(CLIENT, customer, `f-${i + 1}`)));
    const result = await ingest(events);
    expect(result.deadLetters.map((d) => d.ref.lineNumber)).toEqual([8, 1008, 2008]);
    expect(result.inserted).toBe(2497);
  });
});
