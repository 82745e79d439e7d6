import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_LIMITS, readEmbeddedFiles } from '../../src/reports/pdf-attachment.js';
import { PROVENANCE_FORMAT, PROVENANCE_LIMITS } from '../../src/reports/report-provenance.js';
import { isRefused, MAX_TRANSACTIONS_PER_FIGURE, provenanceOf, verifyProvenance } from '../../src/reports/report-verify.js';
import { authHeaders, startApi, type ApiHarness } from '../helpers/api.js';
import { transactionData } from '../helpers/webhooks.js';

/** A file laid out as pdfkit writes an embedded file: what the reader looks for. It need be no more of a PDF than that. */
const embedded = (...streams: Buffer[]): Buffer =>
  Buffer.concat([
    Buffer.from('%PDF-1.3\n'),
    ...streams.flatMap((s, i) => [
      Buffer.from(`${i + 1} 0 obj\n<< /Type /EmbeddedFile /Filter /FlateDecode /Length ${s.length} >>\nstream\n`, 'latin1'),
      s,
      Buffer.from('\nendstream\nendobj\n'),
    ]),
    Buffer.from('%%EOF\n'),
  ]);

const REQUEST = { client_id: 'client-h', customer_id: 'cust-h', month_from: '2024-01', month_to: '2024-03', currency: 'GBP', account_ids: null };

/** A provenance as afford writes one, made up: its hash is not checked until it is verified. */
const provenance = (over: Record<string, unknown> = {}) => ({
  format: PROVENANCE_FORMAT, content_hash: '0'.repeat(64), request: REQUEST, generated_at: '2024-04-01T00:00:00.000Z',
  generator: { name: 'afford', version: '0' }, data: { assessment: {} }, transactions: [], ...over,
});
const pdfOf = (p: object): Buffer => embedded(deflateSync(Buffer.from(JSON.stringify(p))));
/** A provenance whose data nests `depth` levels (written as text: JSON.stringify itself would overflow the stack). */
const deepPdf = (open: string, close: string, depth: number): Buffer =>
  embedded(deflateSync(Buffer.from(JSON.stringify(provenance()).replace('"data":{"assessment":{}}', `"data":{"x":${open.repeat(depth)}1${close.repeat(depth)}}`))));

describe('reading a PDF made to cost the reader', () => {
  it('inflates no more than its bounds, however many embedded files expand a thousandfold, and never reaches the ones after them', () => {
    // Each stream is some 9 KB that expands to 9 MiB of spaces, over one file's bound; a real provenance comes last.
    const bomb = deflateSync(Buffer.alloc(9 * 1024 * 1024, 32), { level: 9 });
    const real = deflateSync(Buffer.from(JSON.stringify(provenance())));
    const texts = [...readEmbeddedFiles(embedded(...Array.from({ length: 12 }, () => bomb), real))];
    expect(texts).toEqual([]);
    // Under one file's bound but together over the total: the reader stops at the total.
    const big = deflateSync(Buffer.alloc(6 * 1024 * 1024, 32), { level: 9 });
    const read = [...readEmbeddedFiles(embedded(big, big, big, big))];
    expect(read.reduce((n, t) => n + t.length, 0)).toBeLessThanOrEqual(EMBEDDED_LIMITS.totalBytes);
    expect(read).toHaveLength(2);
  });

  it('looks at no more than 64 places that name an embedded file, streams or not, so a file of thousands of names costs no more', () => {
    // Each name far from any stream (more than EMBEDDED_LIMITS.window apart), so none of them is a file.
    const names = Buffer.from(`<<${`/Type /EmbeddedFile${' '.repeat(EMBEDDED_LIMITS.window)}`.repeat(EMBEDDED_LIMITS.matches)}>>\n`, 'latin1');
    const real = embedded(deflateSync(Buffer.from(JSON.stringify(provenance()))));
    // The names come first, the report's own file after them: it is never reached.
    expect(provenanceOf(Buffer.concat([names, real]))).toBeUndefined();
    expect(provenanceOf(real)).toBeDefined();
  });

  it('refuses, with the reason, what says it is a provenance but no report could carry', () => {
    const refused = (p: object) => {
      const found = provenanceOf(pdfOf(p));
      return found && isRefused(found) ? found.refused : found;
    };
    expect(refused(provenance({ request: { ...REQUEST, month_from: '2024-13' } }))).toBe('request.month_from: is not what a report carries');
    expect(refused(provenance({ request: { ...REQUEST, month_from: '2024-04' } }))).toBe('request: is not what a report carries');
    expect(refused(provenance({ request: { ...REQUEST, month_from: '0001-01', month_to: '9999-12' } }))).toBe('request: is not what a report carries');
    expect(refused(provenance({ request: { ...REQUEST, currency: "GBP' OR 1=1 --" } }))).toBe('request.currency: is not what a report carries');
    const deep = provenanceOf(deepPdf('{"a":', '}', 5000));
    expect(deep && isRefused(deep) ? deep.refused : deep).toBe(`nests deeper than ${PROVENANCE_LIMITS.depth} levels`);
    const figures = Object.fromEntries(Array.from({ length: PROVENANCE_LIMITS.figures + 1 }, (_, i) => [`f${i}`, 1]));
    expect(refused(provenance({ data: figures }))).toBe(`holds more than ${PROVENANCE_LIMITS.figures} figures`);
    // What is not a provenance at all is not refused, but not found.
    expect(provenanceOf(embedded(deflateSync(Buffer.from('{"format":"something else"}'))))).toBeUndefined();
  });
});

describe('POST /v1/affordability/report/verify, given made-up and protected reports', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApi();
    token = (await api.token(await api.createClient('client-h'))).access_token;
    const base = { client_id: 'client-h', customer_secret: 'protected-secret-0123456789', occurred_at: '2024-02-01T00:00:00Z' };
    const lines = [
      { ...base, event_id: 'h-1', type: 'transaction.upserted', customer_id: 'cust-h', data: transactionData('h-tx-1', { dateTime: '2024-02-10T10:00:00Z' }) },
    ];
    const result = await api.pipeline.ingest(lines.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file' as const, sourceRef: 'h.ndjson', lineNumber: i + 1 } })));
    expect(result.deadLetters).toEqual([]);
  });
  afterAll(async () => api?.close());

  const verify = (body: Buffer, secret?: string) =>
    fetch(`${api.base}/v1/affordability/report/verify`, {
      method: 'POST', headers: { ...authHeaders(token, 'client-h', undefined, secret), 'content-type': 'application/pdf' }, body: new Uint8Array(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }));

  it("needs the secret of a customer that is not hosted, as the customer's own calls do", async () => {
    const pdf = await fetch(`${api.base}/v1/affordability/report?month_from=2024-01&month_to=2024-03&format=pdf`, {
      headers: authHeaders(token, 'client-h', 'cust-h', 'protected-secret-0123456789'),
    }).then(async (r) => Buffer.from(await r.arrayBuffer()));
    expect((await verify(pdf)).status).toBe(401);
    expect((await verify(pdf, 'wrong-secret-0123456789')).status).toBe(401);
    const ok = await verify(pdf, 'protected-secret-0123456789');
    expect(ok).toMatchObject({ status: 200, body: { data: { matches: true, customer_id: 'cust-h' } } });
    // A made-up provenance naming the customer is no way round it.
    expect((await verify(pdfOf(provenance()))).status).toBe(401);
  });

  it('answers 400 naming the reason for a provenance no report carries, where it answered 500', async () => {
    const deep = await verify(deepPdf('[', ']', 6000));
    expect(deep).toMatchObject({ status: 400, body: { code_id: 'failed_validation', errors: { body: 'carries report data that afford did not make: nests deeper than 32 levels' } } });
    const month = await verify(pdfOf(provenance({ request: { ...REQUEST, month_to: '2024-00' } })));
    expect(month).toMatchObject({ status: 400, body: { errors: { body: 'carries report data that afford did not make: request.month_to: is not what a report carries' } } });
  });
});

describe('verifying a made-up provenance of many figures and transactions', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.close());

  it(`lists at most ${MAX_TRANSACTIONS_PER_FIGURE} changed transactions against a figure, and every change once`, async () => {
    // 3,000 insight figures (no month: every changed transaction may be behind each) and 3,000 transactions no longer there.
    const n = 3000;
    const data = { insights: { f: Array.from({ length: n }, (_, i) => i) } };
    const transactions = Array.from({ length: n }, (_, i) => [`z${String(i).padStart(5, '0')}`, '2024-01-01T00:00:00.000Z', 'e', 'income', 'salary', '2024-01', '1.00']);
    const found = provenanceOf(pdfOf(provenance({ request: { ...REQUEST, client_id: 'client-x', customer_id: 'nobody' }, data, transactions })));
    if (!found || isRefused(found)) throw new Error('the made-up provenance was not read');
    const result = await verifyProvenance(api.store, found);
    expect(result.changed_transactions).toHaveLength(n);
    expect(result.changed_figures).toHaveLength(n);
    for (const f of result.changed_figures) {
      expect(f.transactions).toEqual(transactions.slice(0, MAX_TRANSACTIONS_PER_FIGURE).map((t) => t[0]));
    }
  });
});
