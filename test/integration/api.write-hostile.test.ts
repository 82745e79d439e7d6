import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnderTest, tempDbPath, transactionData } from '../helpers/webhooks.js';

const CLIENT = 'client-w';

/** Text of JSON nested `depth` arrays deep (built as text: JSON.stringify itself would overflow the stack). */
const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('write and task routes given hostile input', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  let auth: Record<string, string>;
  const send = async (method: string, path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.base}${path}`, { method, headers: { ...auth, 'content-type': 'application/json', ...headers }, body });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };

  beforeAll(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
    auth = await service.auth(CLIENT);
  });
  afterAll(async () => {
    await service.close();
    db.cleanup();
  });

  it('refuses any JSON body nested deeper than 34 levels with 400, before a route stores what it could not read back', async () => {
    for (const depth of [35, 4113, 100_000]) {
      const body = `{"name":"deep","categorisation_model":"uk-v2","buckets":[{"bucket_l1":"b","additional_data":{"d":${nested(depth)}},"criteria":[{"bucket_l2":"c","category_l1":"income","category_l2":"salary"}]}]}`;
      const res = await send('POST', '/aggregations/v2/buckets', body);
      expect({ depth, status: res.status, errors: res.body['errors'] }).toEqual({ depth, status: 400, errors: { body: 'nests deeper than 34 levels' } });
    }
  });

  it("keeps a bucket named like an object's own properties in the lookups, and changes nothing outside them", async () => {
    const crit = (l2: string, c1: string, c2: string) => ({ bucket_l2: l2, category_l1: c1, category_l2: c2 });
    const body = { name: 'proto', categorisation_model: 'uk-v2', buckets: [
      { bucket_l1: 'constructor', criteria: [crit('salary_bucket', 'income', 'salary')] },
      { bucket_l1: 'housing', criteria: [crit('constructor', 'mortgage_and_rent', 'rent'), crit('value_of', 'mortgage_and_rent', 'mortgage')] },
    ] };
    const created = await send('POST', '/aggregations/v2/buckets', JSON.stringify(body));
    expect(created.status).toBe(201);
    const id = (created.body['data'] as { bucket_id: string }).bucket_id;
    const read = await service.call<{ metadata: { category_lookup: object } }>('GET', `/aggregations/v2/buckets/${id}?category_lookup`, { headers: auth });
    expect(read.body.metadata.category_lookup).toEqual({
      constructor: { salary_bucket: { category_l1: 'income', category_l2: 'salary' } },
      housing: { constructor: { category_l1: 'mortgage_and_rent', category_l2: 'rent' }, value_of: { category_l1: 'mortgage_and_rent', category_l2: 'mortgage' } },
    });
    expect((Object as unknown as Record<string, unknown>)['salary_bucket']).toBeUndefined();
  });

  it('refuses a refresh whose dates do not exist or run backwards, or whose provider is not one line of valid text', async () => {
    const refresh = (body: object) => send('POST', '/v1/open-banking/refresh', JSON.stringify(body), { 'x-customer-id': 'cust-w' });
    await service.ingest([{ event_id: 'w-1', type: 'transaction.upserted', occurred_at: '2024-03-10T10:00:00Z', client_id: CLIENT, customer_id: 'cust-w', data: transactionData('tx-w') }]);
    for (const [body, field] of [
      [{ provider: 'x', from: '2024-13-45' }, 'from'],
      [{ provider: 'x', to: '9999-99-99T99:99:99Z' }, 'to'],
      [{ provider: 'x', from: '2024-01-01T:::::Z' }, 'from'],
      [{ provider: 'x', from: '2024-01-31T24:00:00Z' }, 'from'],
      [{ provider: 'x', from: '2024-03-01', to: '2024-02-01' }, 'from'],
      [{ provider: 'line one\nline two' }, 'provider'],
      // Stored and echoed: an unpaired surrogate would come back as U+FFFD, not as sent.
      [{ provider: 'Monzo\ud800' }, 'provider'],
    ] as const) {
      const res = await refresh(body);
      expect({ body, status: res.status, field: Object.keys((res.body['errors'] ?? {}) as object) }).toEqual({ body, status: 400, field: [field] });
    }
    expect((await refresh({ provider: 'x', from: '2024-01-01', to: '2024-03-01T00:00:00Z' })).status).toBe(202);
  });

  it('takes an Authorization given twice for none, whichever comes first, as a repeated X-Customer-ID is no customer', async () => {
    const get = (headers: string[]) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${service.base}/financial/v2/transactions`, { headers: ['Host', new URL(service.base).host, 'X-Client-ID', CLIENT, 'X-Customer-ID', 'cust-w', ...headers] });
        req.on('error', reject);
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.end();
      });
    const valid = auth['authorization'] as string;
    expect(await get(['Authorization', valid])).toBe(200);
    // Node kept the first: a valid one followed by junk was let in, junk followed by a valid one refused.
    expect(await get(['Authorization', valid, 'Authorization', 'Bearer junk'])).toBe(401);
    expect(await get(['Authorization', 'Bearer junk', 'Authorization', valid])).toBe(401);
    expect(await get(['Authorization', valid, 'Authorization', valid])).toBe(401);
  });

  it("answers an Expect it does not meet, a request without Host and a CONNECT with the interface's error body, which Node's server left bare or unanswered", async () => {
    const { hostname, port } = new URL(service.base);
    const exchange = (request: string) =>
      new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.write(request));
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (c: string) => (text += c));
        socket.on('error', reject);
        // Each answer closes its connection: read to the close.
        socket.on('close', () => {
          const [head = '', body = ''] = text.split('\r\n\r\n');
          resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
        });
      });
    const expectation = { operation_id: 'unknown', code_id: 'request_validation', message: 'The only expectation afford meets is Expect: 100-continue', errors: {} };
    for (const request of [
      `POST /v2/ingest/transactions HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth['authorization']}\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]`,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n',
    ]) {
      const res = await exchange(request);
      expect([res.status, JSON.parse(res.body)]).toEqual([417, expectation]);
      expect(res.headers).toContain('cache-control: no-store');
    }
    // Without Host, which HTTP/1.1 requires, Node answered a bare 400 of its own.
    const hostless = await exchange('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect([hostless.status, JSON.parse(hostless.body)]).toEqual([400, { operation_id: 'unknown', code_id: 'request_validation', message: 'The request is not valid HTTP', errors: {} }]);
    expect((await exchange('GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
    const twice = await exchange('GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n');
    expect([twice.status, JSON.parse(twice.body)]).toEqual([400, { operation_id: 'unknown', code_id: 'request_validation', message: 'The request is not valid HTTP', errors: {} }]);
    const tunnel = await exchange('CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80\r\n\r\n');
    expect([tunnel.status, JSON.parse(tunnel.body)]).toEqual([405, { operation_id: 'unknown', code_id: 'unknown', message: 'Method not allowed', errors: {} }]);
    // Expect: 100-continue is met as ever.
    const goOn = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
    expect(goOn.status).toBe(100);
    expect(goOn.body).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers a call with Content-Type: application/json and no body as the same call without it', async () => {
    const created = await send('POST', '/aggregations/v2/buckets', JSON.stringify({ name: 'gone', categorisation_model: 'uk-v2', buckets: [{ bucket_l1: 'a', criteria: [{ bucket_l2: 'b', category_l1: 'mortgage_and_rent', category_l2: 'rent' }] }] }));
    const id = (created.body['data'] as { bucket_id: string }).bucket_id;
    // Many clients send the header on every call: a DELETE, an unknown path and a wrong method answered 400 "body: is required".
    for (const [method, path, status] of [
      ['DELETE', `/aggregations/v2/buckets/${id}`, 204],
      ['DELETE', `/aggregations/v2/buckets/${id}`, 404],
      ['DELETE', '/nope', 404],
      ['POST', '/nope', 404],
      ['PATCH', '/aggregations/v2/buckets', 405],
      ['OPTIONS', '/financial/v2/transactions', 405],
    ] as const) {
      const res = await send(method, path, '');
      const plain = await fetch(`${service.base}${path}`, { method, headers: auth });
      expect({ method, path, status: res.status }).toEqual({ method, path, status });
      if (status !== 204) expect(res.body['code_id'], `${method} ${path}`).toBe(((await plain.json()) as Record<string, unknown>)['code_id']);
    }
    // A route that takes a body still says it is required.
    const empty = await send('POST', '/v2/ingest/transactions', '');
    expect([empty.status, empty.body['errors']]).toEqual([400, { body: 'is required' }]);
  });

  it('refuses a bucket definition whose additional data could not be kept as sent, rather than answer 500', async () => {
    const definition = (groupData: string, criterionData = '{}') =>
      `{"name":"kept","categorisation_model":"uk-v2","buckets":[{"bucket_l1":"a","additional_data":${groupData},"criteria":[{"bucket_l2":"b","category_l1":"mortgage_and_rent","category_l2":"rent","additional_data":${criterionData}}]}]}`;
    const created = await send('POST', '/aggregations/v2/buckets', definition('{"note":"fine"}'));
    expect(created.status).toBe(201);
    const id = (created.body['data'] as { bucket_id: string }).bucket_id;
    for (const [body, field, reason] of [
      [definition('{"note":"\\ud800"}'), 'buckets[0].additional_data', 'must be valid Unicode text throughout'],
      [definition('{"\\udc00":1}'), 'buckets[0].additional_data', 'must be valid Unicode text throughout'],
      [definition('{}', '{"deep":{"list":["a","\\udbff"]}}'), 'buckets[0].criteria[0].additional_data', 'must be valid Unicode text throughout'],
      [definition('{"score":1e400}'), 'buckets[0].additional_data', "must hold no number beyond a double's range (such as 1e400), which could not be kept as sent"],
      [definition('{}', '{"n":[-1e999]}'), 'buckets[0].criteria[0].additional_data', "must hold no number beyond a double's range (such as 1e400), which could not be kept as sent"],
      [definition('{"id":12345678901234567891}'), 'buckets[0].additional_data', 'must hold no whole number from 9007199254740992 to 1e21 (such as a 19-digit id sent as a number), which could not be kept as sent: send it as a string'],
      [definition('{}', '{"ids":[1,-9007199254740993]}'), 'buckets[0].criteria[0].additional_data', 'must hold no whole number from 9007199254740992 to 1e21 (such as a 19-digit id sent as a number), which could not be kept as sent: send it as a string'],
    ] as const) {
      for (const [method, path] of [['POST', '/aggregations/v2/buckets'], ['PUT', `/aggregations/v2/buckets/${id}`]] as const) {
        const res = await send(method, path, body);
        expect({ method, body, status: res.status, errors: res.body['errors'] }).toEqual({ method, body, status: 400, errors: { [field]: reason } });
      }
    }
    // The definition is as it was.
    const read = await service.call<{ data: { buckets: { additional_data?: object }[] } }>('GET', `/aggregations/v2/buckets/${id}`, { headers: auth });
    expect(read.body.data.buckets[0]?.additional_data).toEqual({ note: 'fine' });
    // A long list in it is walked, not spread onto the call stack (130,000 items overflowed it: a 500).
    const long = await send('POST', '/aggregations/v2/buckets', definition(`{"zeros":[${new Array(130_000).fill(0).join(',')}]}`));
    expect(long.status).toBe(201);
    // The largest whole number a double holds exactly, and a longer id sent as a string, come back as sent.
    const exact = await send('POST', '/aggregations/v2/buckets', definition('{"id":9007199254740991,"ref":"12345678901234567891","mole":6.02e+23}'));
    expect(exact.status).toBe(201);
    const exactId = (exact.body['data'] as { bucket_id: string }).bucket_id;
    const readExact = await service.call<{ data: { buckets: { additional_data?: object }[] } }>('GET', `/aggregations/v2/buckets/${exactId}`, { headers: auth });
    expect(JSON.stringify(readExact.body.data.buckets[0]?.additional_data)).toBe('{"id":9007199254740991,"ref":"12345678901234567891","mole":6.02e+23}');
  });

  it("refuses a customer secret in an ingestion that X-Customer-Secret could not carry, rather than make a customer no read can reach", async () => {
    const entry = (secret: string) => JSON.stringify([{ customer_id: 'cust-secret', customer_secret: secret, transactions: [transactionData('tx-secret')] }]);
    for (const [secret, reason] of [
      [' padded ', 'must not begin or end with a space or tab, nor hold a control character (X-Customer-Secret could not carry it)'],
      ['ab\r\ncd', 'must not begin or end with a space or tab, nor hold a control character (X-Customer-Secret could not carry it)'],
      ['ab\ud800cd', 'must be valid Unicode text'],
    ] as const) {
      const res = await send('POST', '/v2/ingest/transactions', entry(secret));
      expect({ secret, status: res.status, errors: res.body['errors'] }).toEqual({ secret, status: 400, errors: { '[0].customer_secret': reason } });
    }
    // Nor an id no header could name, which the event it makes would refuse: answered 202, the task then failed.
    for (const [field, id] of [['customer_id', 'cust\u0085next'], ['customer_id', ' padded'], ['customer_idempotent_identifier', 'cust\u0001x']] as const) {
      const res = await send('POST', '/v2/ingest/transactions', JSON.stringify([{ [field]: id, transactions: [transactionData('tx-id')] }]));
      expect({ id, status: res.status, errors: res.body['errors'] }).toEqual({
        id, status: 400, errors: { [`[0].${field}`]: 'must not begin or end with a space or tab, nor hold a control character (an HTTP header could not name it)' },
      });
    }
    // Nothing was made of them: the customer is unknown.
    const read = await fetch(`${service.base}/financial/v2/transactions`, { headers: { ...auth, 'x-customer-id': 'cust-secret' } });
    expect(read.status).toBe(404);
    // A secret a header carries, spaces inside and all, makes the customer, and reads it.
    expect((await send('POST', '/v2/ingest/transactions', entry('a secret\twith spaces'))).status).toBe(202);
    const withSecret = await fetch(`${service.base}/financial/v2/transactions`, { headers: { ...auth, 'x-customer-id': 'cust-secret', 'x-customer-secret': 'a secret\twith spaces' } });
    expect(withSecret.status).toBe(200);
  });

  it("takes an ingestion task's entry for a customer away with the customer, and keeps the others'", async () => {
    const body = JSON.stringify([
      { customer_id: 'cust-gone', transactions: [transactionData('g-1')] },
      { customer_id: 'cust-kept', transactions: [transactionData('k-1')] },
    ]);
    const accepted = await send('POST', '/v2/ingest/transactions', body);
    expect(accepted.status).toBe(202);
    const taskId = (accepted.body['metadata'] as { task_id: string }).task_id;
    await service.ingest([{ event_id: 'del-gone', type: 'customer.deleted', occurred_at: new Date().toISOString(), client_id: CLIENT, customer_id: 'cust-gone', data: {} }]);
    const task = await service.call<{ data: Array<Record<string, unknown>> }>('GET', `/ingestion/v3/tasks/${taskId}`, { headers: auth });
    expect(task.status).toBe(200);
    expect(JSON.stringify(task.body)).not.toContain('cust-gone');
    expect(task.body.data).toEqual([expect.objectContaining({ customer_id: 'cust-kept' })]);
  });

  it('reads the token call as RFC 6749 has it: the scheme in any case, and no parameter given twice', async () => {
    // The harness's clients have the secret `<client id>-secret`.
    await service.auth('client-t');
    const secret = 'client-t-secret';
    const token = (form: string, scheme = 'Basic') => fetch(`${service.base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-client-id': 'client-t', authorization: `${scheme} ${Buffer.from(`client-t:${secret}`).toString('base64')}` },
      body: form,
    }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }));
    expect((await token('grant_type=client_credentials', 'basic')).status).toBe(200);
    const twice = await token('grant_type=password&grant_type=client_credentials');
    expect(twice).toMatchObject({ status: 400, body: { errors: { grant_type: 'must be given once' } } });
  });
});
