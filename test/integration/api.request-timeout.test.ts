import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startApi, type ApiHarness } from '../helpers/api.js';
import { rawRequest } from '../helpers/raw-http.js';

/** Sends the start of a request and nothing more, then waits for the server to answer and close. */
const stalled = (base: string, start: string) => rawRequest(base, start);

describe('a request that stops arriving part-way', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi({ settings: { AFFORD_API_REQUEST_TIMEOUT_MS: '400' } });
  });
  afterAll(async () => api.close());

  it('gets 408 with the error body once AFFORD_API_REQUEST_TIMEOUT_MS has passed, and its connection is closed', async () => {
    const starts = {
      body: 'POST /v1/oauth/token HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"client_id":',
      headers: 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ',
    };
    for (const [part, start] of Object.entries(starts)) {
      const ended = await stalled(api.base, start);
      expect({ part, status: ended.status }).toEqual({ part, status: 408 });
      expect(JSON.parse(ended.body)).toMatchObject({ code_id: 'request_validation', message: 'The request took too long to arrive' });
      // Within the timeout and one look at the connections (a quarter of it), with room for a busy machine.
      expect(ended.closedAfterMs).toBeGreaterThanOrEqual(350);
      expect(ended.closedAfterMs).toBeLessThan(5_000);
    }
  });

  it('still serves a request that arrives whole within the time', async () => {
    const res = await api.call('GET', '/healthz');
    expect(res.status).toBe(200);
  });

  it('waits 30 s by default, and refuses a setting under 100 ms', () => {
    expect(loadConfig({}).AFFORD_API_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(() => loadConfig({ AFFORD_API_REQUEST_TIMEOUT_MS: '50' })).toThrow(/AFFORD_API_REQUEST_TIMEOUT_MS/);
  });
});
