import { request } from 'node:http';
import { connect } from 'node:net';
import Fastify from 'fastify';
import { installContentDecoding } from '../../src/api/content-encoding.js';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_BODY_LIMIT } from '../../src/api/limits.js';
import { clientJsonHeaders, startLoggedService, type LoggedService } from '../helpers/logged-service.js';

/** Request bodies sent compressed, as HTTP clients do for large uploads. */

const transaction = (id: string, value: string) => ({
  transaction_id: id,
  account_id: 'acc-1',
  credit_debit_indicator: 'debit',
  amount: { value, currency: 'GBP' },
  date_time: '2024-02-14T09:00:00Z',
});

describe('a request body with a Content-Encoding', () => {
  let svc: LoggedService;
  let headers: Record<string, string>;
  const post = (body: Buffer, encoding?: string) =>
    fetch(`${svc.base}/v2/ingest/transactions`, { method: 'POST', headers: { ...headers, ...(encoding === undefined ? {} : { 'content-encoding': encoding }) }, body: new Uint8Array(body) });
  const stored = async (customer: string) => {
    const res = await fetch(`${svc.base}/financial/v2/transactions?page_size=100`, { headers: { ...headers, 'x-customer-id': customer } });
    // A customer of whom nothing was stored is unknown.
    if (res.status === 404) return [];
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { transaction_id: string; amount: { value: string } }[] }).data.map((t) => `${t.transaction_id}=${t.amount.value}`).sort();
  };

  beforeAll(async () => {
    svc = await startLoggedService('warn');
    headers = await clientJsonHeaders(svc, 'client-e');
  });
  afterAll(async () => {
    await svc.stop();
    svc.cleanup();
  });

  it('is decompressed (gzip, deflate, br, in any case, identity as none) and ingested as the same body sent plain', async () => {
    const encoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: (b) => gzipSync(b),
      'X-GZIP': (b) => gzipSync(b),
      deflate: (b) => deflateSync(b),
      br: (b) => brotliCompressSync(b),
      'identity, gzip': (b) => gzipSync(b),
      identity: (b) => b,
    };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const customer = `cust-${encoding.replace(/[^a-z]/gi, '')}`;
      const body = Buffer.from(JSON.stringify([{ customer_id: customer, transactions: [transaction('t1', '12.34'), transaction('t2', '0.66')] }]));
      const res = await post(encode(body), encoding);
      expect(res.status, encoding).toBe(202);
      expect(await stored(customer), encoding).toEqual(['t1=12.34', 't2=0.66']);
    }
  });

  it('is refused with 415 when its coding is one afford does not read, 400 when it is damaged, and 413 when it expands past the limit', async () => {
    const body = Buffer.from(JSON.stringify([{ customer_id: 'cust-refused', transactions: [transaction('t1', '1.00')] }]));
    for (const encoding of ['compress', 'zstd', 'gzip, br', 'gzip;q=1']) {
      const res = await post(gzipSync(body), encoding);
      expect(res.status, encoding).toBe(415);
      expect(res.headers.get('accept-encoding'), encoding).toBe('gzip, deflate, br');
      expect(await res.json()).toMatchObject({ code_id: 'request_validation', message: "The request body's Content-Encoding must be gzip, deflate, br or identity" });
    }
    // Labelled br but sent plain, and gzip cut short: not what the header says.
    for (const [encoding, bytes] of [['br', body], ['gzip', gzipSync(body).subarray(0, 20)]] as const) {
      const res = await post(bytes, encoding);
      expect(res.status, encoding).toBe(400);
      expect(await res.json()).toMatchObject({ code_id: 'failed_validation', errors: { body: 'could not be decompressed as its Content-Encoding says' } });
    }
    // A few kilobytes that expand past the ingest route's limit.
    const bomb = gzipSync(Buffer.concat([Buffer.from('['), Buffer.alloc(INGEST_BODY_LIMIT + 1, ' '), Buffer.from(']')]));
    expect(bomb.length).toBeLessThan(INGEST_BODY_LIMIT / 100);
    const res = await post(bomb, 'gzip');
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code_id: 'request_validation' });
    expect(await stored('cust-refused')).toEqual([]);
  });

  it('is no matter on a call without a body', async () => {
    for (const encoding of ['gzip', 'zstd']) {
      const res = await fetch(`${svc.base}/financial/v2/transactions?page_size=1`, { headers: { ...headers, 'x-customer-id': 'cust-gzip', 'content-encoding': encoding } });
      expect(res.status, encoding).toBe(200);
    }
  });

  it('of an empty body answers as the same empty body sent plain: a body is required', async () => {
    // Sent chunked, with no chunk: a client streaming a body it turned out to have nothing for.
    const empty = (encoding?: string, pause = 0) =>
      new Promise<{ status: number; json: () => unknown }>((resolve, reject) => {
        const req = request(`${svc.base}/v2/ingest/transactions`, { method: 'POST', headers: { ...headers, ...(encoding === undefined ? {} : { 'content-encoding': encoding }) } });
        req.on('error', reject);
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text) }));
        });
        req.flushHeaders();
        // No Content-Length was set: Node sends the body chunked, and here it sends no chunk.
        expect(req.getHeader('transfer-encoding') ?? req.chunkedEncoding).toBeTruthy();
        // At once, the request's end comes with its headers; after a pause, the service has the headers and waits for the rest.
        setTimeout(() => req.end(), pause);
      });
    const plain = await empty();
    const plainBody = plain.json();
    expect(plain.status).toBe(400);
    for (const encoding of ['gzip', 'deflate', 'br']) {
      for (const pause of [0, 100]) {
        const res = await empty(encoding, pause);
        expect(res.status, `${encoding} after ${pause} ms`).toBe(400);
        expect(res.json(), `${encoding} after ${pause} ms`).toEqual(plainBody);
      }
    }
    // The coding of nothing at all: the body, once decoded, is empty too.
    for (const [encoding, bytes] of [['gzip', gzipSync(Buffer.alloc(0))], ['deflate', deflateSync(Buffer.alloc(0))], ['br', brotliCompressSync(Buffer.alloc(0))]] as const) {
      const res = await post(bytes, encoding);
      expect(res.status, encoding).toBe(400);
      expect(await res.json(), encoding).toEqual(plainBody);
    }
  });

  it('goes on past a compressed body whose client went away while an earlier hook waited, rather than wait for it for ever', async () => {
    // The service's auth waits on the store before the body is read: a 50 ms hook stands in for it.
    const app = Fastify();
    app.addHook('onRequest', async () => new Promise((r) => setTimeout(r, 50)));
    installContentDecoding(app);
    let after = 0;
    app.addHook('preParsing', async (_request, _reply, payload) => {
      after++;
      return payload;
    });
    app.post('/x', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as { port: number };
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n', () =>
          setTimeout(() => socket.resetAndDestroy(), 10),
        ),
      );
      socket.on('error', () => undefined);
      await new Promise((r) => setTimeout(r, 500));
      // The request was closed before the decoding hook looked at it: that hook settles, and the next one runs.
      expect(after).toBe(1);
    } finally {
      await app.close();
    }
  });
});
