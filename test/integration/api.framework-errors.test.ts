import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_BODY_LIMIT } from '../../src/api/limits.js';
import { startApi, type ApiHarness, newClientHeaders } from '../helpers/api.js';
import { httpText, rawRequest, type RawResponse } from '../helpers/raw-http.js';

const BUCKETS = '/aggregations/v2/buckets';
const TOKEN = '/v1/oauth/token';

/** The interface's 4xx body: operation_id, code_id, message, errors; never a framework code. */
function expectErrorBody(res: RawResponse, status: number, codeId: string, operationId = 'unknown'): Record<string, unknown> {
  expect(res.status, res.headers).toBe(status);
  expect(res.headers.toLowerCase()).toContain('content-type: application/json');
  expect(res.body).not.toMatch(/FST_|HPE_|statusCode/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body).toMatchObject({ operation_id: operationId, code_id: codeId, message: expect.any(String), errors: expect.any(Object) });
  return body;
}

describe('4xx answers that the framework or Node used to write', () => {
  let api: ApiHarness;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startApi({ fixtures: ['hand-computed.ndjson'] });
    auth = await newClientHeaders(api, 'client-a');
  });
  afterAll(async () => api.close());

  it('answers a path that is not valid percent-encoding with the error body', async () => {
    const body = expectErrorBody(await rawRequest(api.base, httpText('GET', '/aggregations/v2/buckets/%E0%A4%A', auth)), 400, 'failed_validation');
    expect(body['errors']).toEqual({ path: 'must be valid percent-encoding' });
  });

  it('answers a path segment longer than any id with the error body (not 414)', async () => {
    const body = expectErrorBody(await rawRequest(api.base, httpText('GET', `${BUCKETS}/${'a'.repeat(2000)}`, auth)), 400, 'failed_validation');
    expect(body['errors']).toEqual({ path: 'a path segment must be at most 200 characters' });
  });

  it('answers headers over the limit with 431 and the error body', async () => {
    expectErrorBody(await rawRequest(api.base, httpText('GET', '/healthz', { 'x-big': 'x'.repeat(20_000) })), 431, 'request_validation');
  });

  it('answers malformed HTTP with 400 and the error body, and closes', async () => {
    for (const text of [
      'GARBAGE\r\n\r\n',
      'GET /healthz\0 HTTP/1.1\r\nHost: a\r\n\r\n',
      httpText('POST', TOKEN, { 'content-type': 'application/json', 'content-length': 'abc' }),
      httpText('POST', TOKEN, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, 'zz\r\n{}\r\n0\r\n\r\n'),
    ]) {
      expectErrorBody(await rawRequest(api.base, text), 400, 'request_validation');
    }
  });

  it('answers a body that is not JSON, or empty JSON, with 400 naming the body', async () => {
    const json = { 'content-type': 'application/json' };
    let body = expectErrorBody(await rawRequest(api.base, httpText('POST', BUCKETS, { ...auth, ...json }, '{"name": x')), 400, 'failed_validation', 'aggregations_v2_buckets_post');
    expect(body['errors']).toEqual({ body: 'must be valid JSON' });
    body = expectErrorBody(await rawRequest(api.base, httpText('POST', BUCKETS, { ...auth, ...json, 'content-length': '0' })), 400, 'failed_validation', 'aggregations_v2_buckets_post');
    expect(body['errors']).toEqual({ body: 'is required' });
  });

  it('answers an unsupported media type with 415 and the error body', async () => {
    for (const type of ['application/xml', 'image/png', 'multipart/form-data; boundary=x']) {
      expectErrorBody(await rawRequest(api.base, httpText('POST', BUCKETS, { ...auth, 'content-type': type }, 'hello')), 415, 'request_validation', 'aggregations_v2_buckets_post');
    }
  });

  it('answers a body over the route limit with 413 and the error body, without reading it', async () => {
    const oversized = (path: string, bytes: number) => httpText('POST', path, { ...auth, 'content-type': 'application/json', 'content-length': String(bytes) }, '[');
    expectErrorBody(await rawRequest(api.base, oversized(BUCKETS, 256 * 1024 + 1)), 413, 'request_validation', 'aggregations_v2_buckets_post');
    expectErrorBody(await rawRequest(api.base, oversized(TOKEN, 16 * 1024 + 1)), 413, 'request_validation', 'oauth_token_post');
    // The ingest route is not registered in this harness: the limit stands for any unknown route too.
    expectErrorBody(await rawRequest(api.base, oversized('/nope', INGEST_BODY_LIMIT + 1)), 413, 'request_validation');
  });
});
