import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_BODY_LIMIT, MAX_FIELD_ERRORS } from '../../src/api/limits.js';
import { MAX_INGEST_TRANSACTIONS } from '../../src/tasks/ingestion.js';
import { clientJsonHeaders, startLoggedService, type LoggedService } from '../helpers/logged-service.js';
import { httpText, rawRequest } from '../helpers/raw-http.js';

/** A transaction with its text fields at the ingest maxima: ids 200 characters, description 1,000, other text 500. */
function largestTransaction(i: number): object {
  const text = (n: number) => 'é'.repeat(n);
  return {
    transaction_id: `t${i}-`.padEnd(200, 'x'),
    account_id: 'a'.repeat(200),
    provider: text(500),
    description: text(1000),
    credit_debit_indicator: 'debit',
    amount: { value: '1.00', currency: 'GBP' },
    date_time: '2024-02-14T09:00:00Z',
    enrichments: {
      categories: { l1: { slug: 'food_and_drink' }, l2: { slug: 'coffee' } },
      merchant: { display_name: text(500) },
    },
    counterparty: { name: text(500), identifier: text(500) },
  };
}

describe('the HTTP ingest body limit', () => {
  let svc: LoggedService;
  let headers: Record<string, string>;

  beforeAll(async () => {
    svc = await startLoggedService('warn');
    headers = await clientJsonHeaders(svc, 'client-a');
  });
  afterAll(async () => {
    await svc.stop();
    svc.cleanup();
  });

  it('fits 1,000 transactions with every text field at its maximum, and ingests them', async () => {
    const body = JSON.stringify([{ customer_id: 'c'.repeat(200), transactions: Array.from({ length: MAX_INGEST_TRANSACTIONS }, (_, i) => largestTransaction(i)) }]);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(INGEST_BODY_LIMIT);
    const res = await fetch(`${svc.base}/v2/ingest/transactions`, { method: 'POST', headers, body });
    expect(res.status).toBe(202);
  }, 60_000);

  it('answers 1,000 bad items with a short error listing 50 of them', async () => {
    const body = JSON.stringify(Array.from({ length: 1000 }, () => ({})));
    const res = await fetch(`${svc.base}/v2/ingest/transactions`, { method: 'POST', headers, body });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.length).toBeLessThan(10_000);
    const errors = (JSON.parse(text) as { errors: Record<string, string> }).errors;
    expect(Object.keys(errors)).toHaveLength(MAX_FIELD_ERRORS + 1);
    // Each item names one or two fields: at least all the others are counted in the note.
    const more = /^(\d+) more fields are invalid and not listed$/.exec(errors['_more'] ?? '');
    expect(Number(more?.[1])).toBeGreaterThanOrEqual(1000 - MAX_FIELD_ERRORS);
  });

  it('answers 200,000 items with one error, before it looks at any of them', async () => {
    const body = JSON.stringify(Array.from({ length: 200_000 }, () => ({})));
    const res = await fetch(`${svc.base}/v2/ingest/transactions`, { method: 'POST', headers, body });
    expect(res.status).toBe(400);
    const errors = ((await res.json()) as { errors: Record<string, string> }).errors;
    expect(Object.keys(errors)).toEqual(['body']);
    expect(errors['body']).toMatch(/^must hold at most 1000 customers/);
  });

  it('answers a larger body 413 with the error body, before reading it', async () => {
    const res = await rawRequest(svc.base, httpText('POST', '/v2/ingest/transactions', { ...headers, 'content-length': String(INGEST_BODY_LIMIT + 1) }, '['));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ operation_id: 'v2_ingest_transactions_post', code_id: 'request_validation', message: 'The request body is too large', errors: {} });
  });
});
