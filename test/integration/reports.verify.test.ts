import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { VerifyResult } from '../../src/reports/report-verify.js';
import { authHeaders, GENERIC_404, startApi, type ApiHarness } from '../helpers/api.js';
import { fixturePath, tempStore } from '../helpers/store.js';

const run = promisify(execFile);
const BIN = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'bin', 'afford.mjs');
const CUSTOMER = 'cust-ins-1';

/** A later version of salary i01 (2,000.00 -> 2,050.00) and the deletion of bet i46 (100.00), after the PDF was made. */
function changes(): string {
  const base = { client_id: 'client-i', customer_id: CUSTOMER };
  return [
    { ...base, event_id: 'chg-1', type: 'transaction.upserted', occurred_at: '2024-04-02T00:00:00Z', data: {
      transaction_id: 'i01', account_id: 'acc-cur', provider: 'Monzo', description: 'SALARY ACME LTD', credit_debit_indicator: 'credit',
      amount: { value: '2050.00', currency: 'GBP' }, date_time: '2024-01-26T08:00:00Z', status: 'booked',
      enrichments: { categories: { l1: { slug: 'income' }, l2: { slug: 'salary' } } }, tags: [],
    } },
    { ...base, event_id: 'chg-2', type: 'transaction.deleted', occurred_at: '2024-04-02T00:00:01Z', data: { transaction_id: 'i46' } },
  ].map((e) => JSON.stringify(e)).join('\n') + '\n';
}

describe('afford report verify', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  let env: NodeJS.ProcessEnv;
  let pdf: string;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestFile(ctx.pipeline, fixturePath('insights-hand-computed.ndjson'), { batchRows: 1000 });
    await ctx.store.close();
    env = { ...process.env, AFFORD_DB: ctx.store.path, AFFORD_LOG_LEVEL: 'silent' };
    pdf = path.join(ctx.dir, 'report.pdf');
    await run('node', [BIN, 'report', CUSTOMER, '--from', '2024-01', '--to', '2024-03', '--pdf', pdf], { env });
  });
  afterAll(async () => ctx.cleanup());

  it('says the report matches while the store is unchanged', async () => {
    const out = await run('node', [BIN, 'report', 'verify', pdf], { env });
    expect(out.stdout).toContain(`${pdf}: matches the store`);
    expect(out.stdout).toContain('signature holds: the file is as afford made it');
    expect(out.stdout).toContain('customer cust-ins-1 of client client-i, January 2024 to March 2024');
  });

  it('refuses a file that is not a report afford made', async () => {
    const other = path.join(ctx.dir, 'other.pdf');
    writeFileSync(other, '%PDF-1.3\nnot a report\n');
    await expect(run('node', [BIN, 'report', 'verify', other], { env })).rejects.toMatchObject({
      code: 2, stderr: expect.stringContaining('carries no afford report data'),
    });
  });

  it('after an ingest, names each changed figure and the later or deleted transaction behind it', async () => {
    const file = path.join(ctx.dir, 'changes.ndjson');
    writeFileSync(file, changes());
    await run('node', [BIN, 'ingest', 'file', file], { env });

    const text = await run('node', [BIN, 'report', 'verify', pdf], { env }).then(() => undefined, (err: { code: number; stdout: string }) => err);
    expect(text?.code).toBe(1);
    const out = text?.stdout ?? '';
    expect(out).toContain(`${pdf}: does not match the store`);
    expect(out).toContain('Total income, over the period: £8,775.50 -> £8,825.50 (transactions i01)');
    expect(out).toContain('Total income, January 2024: £2,700.00 -> £2,750.00 (transactions i01)');
    expect(out).toContain('Non-essential expenditure, over the period: £2,012.97 -> £1,912.97 (transactions i46)');
    expect(out).toMatch(/i01: a later version: was 2000\.00 in 2024-01, income\/salary; now 2050\.00 in 2024-01, income\/salary/);
    expect(out).toMatch(/i46: deleted \(event chg-2 of 2024-04-02T00:00:01\.000Z\); was 100\.00 in 2024-01, non_essential\/gambling/);

    const json = await run('node', [BIN, 'report', 'verify', pdf, '--json'], { env }).then(() => undefined, (err: { stdout: string }) => err.stdout);
    const result = JSON.parse(json ?? '{}') as VerifyResult;
    expect(result).toMatchObject({ matches: false, intact: true, customer_exists: true });
    expect(result.changed_transactions.map((t) => [t.transaction_id, t.change])).toEqual([['i01', 'later_version'], ['i46', 'deleted']]);
    expect(result.changed_transactions[0]).toMatchObject({ was_version: '2024-01-26T08:00:00.000Z ins-003', now_version: '2024-04-02T00:00:00.000Z chg-1' });
    // The gambling signal moved too: its amount is one of the changed figures, with the deleted bet behind it.
    const gambling = result.changed_figures.find((f) => f.figure === 'insights.risk_signals[name=gambling_share_of_income].amount');
    expect(gambling).toMatchObject({ was: '1000.00', now: '900.00' });
    expect(gambling?.transactions).toContain('i46');
  });
});

describe('POST /v1/affordability/report/verify', () => {
  let api: ApiHarness;
  let token: string;
  let otherToken: string;
  let pdf: Buffer;
  beforeAll(async () => {
    api = await startApi({ fixtures: ['insights-hand-computed.ndjson'] });
    token = (await api.token(await api.createClient('client-i'))).access_token;
    otherToken = (await api.token(await api.createClient('client-other'))).access_token;
    const res = await fetch(`${api.base}/v1/affordability/report?month_from=2024-01&month_to=2024-03&format=pdf`, { headers: authHeaders(token, 'client-i', CUSTOMER) });
    expect(res.status).toBe(200);
    pdf = Buffer.from(await res.arrayBuffer());
  });
  afterAll(async () => api?.close());

  const verify = (body: Buffer | string, headers: Record<string, string>) =>
    fetch(`${api.base}/v1/affordability/report/verify`, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }));

  it('answers matches for a PDF the API made, and the same as the command line after a change', async () => {
    const ok = await verify(pdf, { ...authHeaders(token, 'client-i'), 'content-type': 'application/pdf' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ operation_id: 'v1_affordability_report_verify_post', data: { matches: true, customer_id: CUSTOMER, changed_figures: [] } });

    const file = path.join(path.dirname(api.store.path), 'changes.ndjson');
    writeFileSync(file, changes());
    await ingestFile(api.pipeline, file, { batchRows: 100 });
    const changed = await verify(pdf, { ...authHeaders(token, 'client-i'), 'content-type': 'application/pdf' });
    const data = changed.body['data'] as VerifyResult;
    expect(data.matches).toBe(false);
    expect(data.changed_figures.find((f) => f.figure === 'assessment.income.total.overall_total')).toMatchObject({ was: '8775.50', now: '8825.50', transactions: ['i01'] });
    expect(data.changed_transactions.map((t) => t.change)).toEqual(['later_version', 'deleted']);
  });

  it('says whether the file is as afford made it: its signature holds, is broken by any change to its bytes, or is not there', async () => {
    const headers = { ...authHeaders(token, 'client-i'), 'content-type': 'application/pdf' };
    expect((await verify(pdf, headers)).body).toMatchObject({ data: { signature: 'holds' } });
    // One byte of the pages changed (the embedded data untouched, so the figures still match), or the signature line cut off.
    const changed = Buffer.from(pdf);
    const at = changed.indexOf('/Type /Page');
    changed[at + 1] = 't'.charCodeAt(0);
    expect((await verify(changed, headers)).body).toMatchObject({ data: { signature: 'broken' } });
    const cut = pdf.subarray(0, pdf.lastIndexOf('%afford-signature'));
    expect((await verify(cut, headers)).body).toMatchObject({ data: { signature: 'none' } });
  });

  it("is not found for another client's report, and refuses a body that is not such a PDF", async () => {
    expect(await verify(pdf, { ...authHeaders(otherToken, 'client-other'), 'content-type': 'application/pdf' })).toMatchObject({ status: 404, body: GENERIC_404 });
    const notPdf = await verify(readFileSync(fixturePath('insights-hand-computed.ndjson')), { ...authHeaders(token, 'client-i'), 'content-type': 'application/pdf' });
    expect(notPdf).toMatchObject({ status: 400, body: { code_id: 'failed_validation', errors: { body: expect.stringContaining('not a report PDF') } } });
    const json = await verify('{"a":1}', { ...authHeaders(token, 'client-i'), 'content-type': 'application/json' });
    expect(json).toMatchObject({ status: 400, body: { code_id: 'failed_validation' } });
  });
});
