import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, startApi, type ApiHarness } from '../helpers/api.js';
import { rawRequest } from '../helpers/raw-http.js';
import { transactionData } from '../helpers/webhooks.js';

const CLIENT = 'client-u';
const SECRET = 'sécret-ünïcode-0123456789';
const CUSTOMERS = ['cust-é', 'клиент-1', '顧客', 'cust\ttab'];

/** A GET whose headers go on the wire as their UTF-8 bytes, as a client sends them (fetch refuses characters past Latin-1). */
const get = (base: string, path: string, headers: Record<string, string>) =>
  rawRequest(base, [`GET ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n'));

describe('customer ids and secrets beyond ASCII, named in headers', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApi();
    token = (await api.token(await api.createClient(CLIENT))).access_token;
    const events = CUSTOMERS.map((customer, i) => ({
      event_id: `u-${i}`, type: 'transaction.upserted', occurred_at: '2024-03-10T10:00:00Z', client_id: CLIENT, customer_id: customer,
      ...(i === 0 ? { customer_secret: SECRET } : {}), data: transactionData(`tx-u${i}`),
    }));
    const result = await api.pipeline.ingest(events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file' as const, sourceRef: 'u.ndjson', lineNumber: i + 1 } })));
    expect(result.deadLetters).toEqual([]);
  });
  afterAll(async () => api?.close());

  it('reads every customer ingest stored, with their secret, as the header bytes spell them in UTF-8', async () => {
    for (const [i, customer] of CUSTOMERS.entries()) {
      const res = await get(api.base, '/financial/v2/transactions', authHeaders(token, CLIENT, customer, i === 0 ? SECRET : undefined));
      expect({ customer, status: res.status }).toEqual({ customer, status: 200 });
      expect((JSON.parse(res.body) as { data: Array<{ transaction_id: string }> }).data.map((t) => t.transaction_id)).toEqual([`tx-u${i}`]);
    }
    // The secret is read the same way: a wrong one is still wrong.
    expect((await get(api.base, '/financial/v2/transactions', authHeaders(token, CLIENT, CUSTOMERS[0], 'sécret-wrong-0123456789'))).status).toBe(401);
  });

  it('answers 400 for an X-Customer-ID whose bytes are not UTF-8 (Latin-1, say), which would name nobody, or another', async () => {
    const auth = authHeaders(token, CLIENT);
    const head = ['GET /financial/v2/transactions HTTP/1.1', 'Host: localhost', 'Connection: close', ...Object.entries(auth).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
    const res = await rawRequest(api.base, Buffer.concat([Buffer.from(`${head}\r\nX-Customer-ID: cust-`), Buffer.from([0xe9]), Buffer.from('\r\n\r\n')]));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code_id: 'failed_validation', errors: { 'X-Customer-ID': 'must be UTF-8 text' } });
  });

  it('answers 400 for an X-Customer-ID given twice, which Node joins into one value', async () => {
    const auth = authHeaders(token, CLIENT);
    const res = await rawRequest(api.base, [
      'GET /financial/v2/transactions HTTP/1.1', 'Host: localhost', 'Connection: close',
      ...Object.entries(auth).map(([k, v]) => `${k}: ${v}`), 'X-Customer-ID: cust-é', 'X-Customer-ID: cust-é', '', '',
    ].join('\r\n'));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code_id: 'failed_validation', errors: { 'X-Customer-ID': 'must be given once' } });
  });
});
