import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gbp } from '../helpers/pdf.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affordabilityReportJson } from '../../src/api/schemas/affordability.schemas.js';
import { reportFigures, type ReportData } from '../../src/reports/report-model.js';
import { buildReport } from '../../src/reports/report-service.js';
import { GENERIC_401, GENERIC_404, authHeaders, expectSchema, startApi, type ApiHarness } from '../helpers/api.js';

const CUSTOMER = 'cust-report-1';
const PATH = '/v1/affordability/report';

/** The server's "now": mid-July 2024, so the default range is a fixed six months whatever the day the test runs. */
const NOW = '2024-07-15T12:00:00Z';

describe('GET /v1/affordability/report', () => {
  let api: ApiHarness;
  let token: string;
  let otherToken: string;
  let dir: string;
  const headers = (extra: Record<string, string> = {}) => ({ ...authHeaders(token, 'client-r', CUSTOMER), ...extra });

  beforeAll(async () => {
    api = await startApi({ fixtures: ['report-hand-computed.ndjson'], clock: () => new Date(NOW) });
    token = (await api.token(await api.createClient('client-r'))).access_token;
    otherToken = (await api.token(await api.createClient('client-other'))).access_token;
    dir = mkdtempSync(path.join(tmpdir(), 'afford-report-api-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the report of the model, in the reference shape', async () => {
    const res = await api.call('GET', `${PATH}?month_from=2024-01&month_to=2024-03`, { headers: headers() });
    expect(res.status).toBe(200);
    const body = expectSchema(affordabilityReportJson, res.body);
    const expected = await buildReport(api.store, { clientId: 'client-r', customerId: CUSTOMER, range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' },
      new Date(body.metadata.generated_at));
    expect(res.body).toEqual(expected);
    expect(body.data.assessment.income.total.overall_total).toEqual({ value: '4793.74', currency: 'GBP' });
    expect(body.data.assessment.income.net.overall_total.value).toBe('2475.55');
    expect(body.data.accounts.missing_data).toMatchObject({ income: true, expenditure: true });
  });

  it('takes repeated account_id, and the currency', async () => {
    const both = await api.call<{ data: unknown }>('GET', `${PATH}?month_from=2024-01&month_to=2024-03&account_id=acc-main&account_id=acc-save`, { headers: headers() });
    const all = await api.call<{ data: unknown }>('GET', `${PATH}?month_from=2024-01&month_to=2024-03`, { headers: headers() });
    expect(both.status).toBe(200);
    const bothReport = expectSchema(affordabilityReportJson, both.body);
    const allReport = expectSchema(affordabilityReportJson, all.body);
    // Both accounts are all accounts: the same figures, though the links name the accounts.
    const totals = (r: typeof allReport) => reportFigures(r.data as ReportData).map(({ figure }) => [figure.overall_total.value, figure.monthly_totals.map((m) => m.amount.value)]);
    expect(totals(bothReport)).toEqual(totals(allReport));
    expect((bothReport.data.assessment.income.total._links as { transactions: string }).transactions).toMatch(/&account_id=acc-main&account_id=acc-save$/);
    expect(bothReport.metadata.account_ids).toEqual(['acc-main', 'acc-save']);
    const one = expectSchema(affordabilityReportJson, (await api.call('GET', `${PATH}?month_from=2024-01&month_to=2024-03&account_id=acc-save`, { headers: headers() })).body);
    expect(one.data.assessment.expenditure.non_essential.overall_total.value).toBe('10.01');
    expect(one.data.accounts.account_ids).toEqual(['acc-save']);
    const eur = expectSchema(affordabilityReportJson, (await api.call('GET', `${PATH}?month_from=2024-01&month_to=2024-03&currency=EUR`, { headers: headers() })).body);
    expect(eur.data.assessment.income.total.overall_total).toEqual({ value: '100.00', currency: 'EUR' });
  });

  it('defaults to the last 6 complete months', async () => {
    const body = expectSchema(affordabilityReportJson, (await api.call('GET', PATH, { headers: headers() })).body);
    // NOW is in July 2024: January to June are the six complete months before it.
    expect(body.data.months_assessed).toEqual({ start: '2024-01', end: '2024-06', count: 6 });
    expect(body.data.assessment.income.total.monthly_totals).toHaveLength(6);
  });

  it('rejects bad parameters with failed_validation, field by field', async () => {
    const cases: Array<[string, string]> = [
      ['month_from=2024-13', 'month_from'],
      ['month_from=2024-04&month_to=2024-03', 'month_from'],
      ['currency=gbp', 'currency'],
      ['format=xml', 'format'],
    ];
    for (const [query, field] of cases) {
      const res = await api.call<{ operation_id: string; code_id: string; errors: Record<string, string> }>('GET', `${PATH}?${query}`, { headers: headers() });
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ operation_id: 'v1_affordability_report', code_id: 'failed_validation' });
      expect(Object.keys(res.body.errors), query).toContain(field);
    }
  });

  it('answers account_not_found for an account that is not the customer\'s', async () => {
    const res = await api.call('GET', `${PATH}?account_id=acc-main&account_id=acc-elsewhere`, { headers: headers() });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ operation_id: 'v1_affordability_report', code_id: 'account_not_found', errors: { account_id: expect.stringContaining('acc-elsewhere') } });
  });

  it('authenticates as every customer endpoint does', async () => {
    expect(await api.call('GET', PATH)).toMatchObject({ status: 401, body: GENERIC_401 });
    // No X-Customer-ID: a malformed request that names the header, as the reference answers (not a 401, which its clients take for an expired token).
    expect(await api.call('GET', PATH, { headers: authHeaders(token, 'client-r') })).toMatchObject({
      status: 400,
      body: { code_id: 'failed_validation', errors: { 'X-Customer-ID': 'is required' } },
    });
    expect(await api.call('GET', PATH, { headers: authHeaders('not-a-token', 'client-r', CUSTOMER) })).toMatchObject({ status: 401, body: GENERIC_401 });
    // Another client's customer looks exactly like an unknown one, here as on the transaction list.
    const foreign = await api.call('GET', PATH, { headers: authHeaders(otherToken, 'client-other', CUSTOMER) });
    const foreignList = await api.call('GET', '/financial/v2/transactions', { headers: authHeaders(otherToken, 'client-other', CUSTOMER) });
    expect(foreign.status).toBe(foreignList.status);
    expect(foreign.body).toEqual(foreign.status === 404 ? GENERIC_404 : GENERIC_401);
  });

  it('gives the same report as a PDF, by Accept or by ?format=pdf', async () => {
    const get = (query: string, extra: Record<string, string> = {}) => fetch(`${api.base}${PATH}?${query}`, { headers: headers(extra) });
    const json = expectSchema(affordabilityReportJson, await (await get('month_from=2024-01&month_to=2024-03')).json());
    for (const [query, extra] of [
      ['month_from=2024-01&month_to=2024-03&format=pdf', {}],
      ['month_from=2024-01&month_to=2024-03', { accept: 'application/pdf' }],
      ['month_from=2024-01&month_to=2024-03', { accept: 'application/json;q=0.5, application/pdf' }],
    ] as Array<[string, Record<string, string>]>) {
      const res = await get(query, extra);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="affordability-cust-report-1-2024-01-2024-03.pdf"');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const file = path.join(dir, 'api.pdf');
      writeFileSync(file, bytes);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      for (const f of [json.data.assessment.income.total, json.data.assessment.income.net, json.data.assessment.expenditure.essential]) {
        expect(text).toContain(gbp(f.overall_total.value));
      }
    }
    // JSON wins when asked for, or when preferred.
    expect((await get('format=json', { accept: 'application/pdf' })).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await get('', { accept: 'application/json, application/pdf;q=0.1' })).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await get('', { accept: '*/*' })).headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await api.call<{ paths: Record<string, Record<string, { operationId: string }>> }>('GET', '/openapi.json')).body;
    expect(doc.paths[PATH]?.['get']?.operationId).toBe('v1_affordability_report');
  });
});
