import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import { useCustomerApi } from '../helpers/api.js';
import { fixturePath, tempStore } from '../helpers/store.js';

const run = promisify(execFile);
const BIN = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'bin', 'afford.mjs');
const UNKNOWN = 'must be an ISO 4217 currency code such as GBP';

describe('an unknown currency in the API', () => {
  const served = useCustomerApi({ fixtures: ['hand-computed.ndjson'] });

  const ENDPOINTS: Array<[string, string]> = [
    ['/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1&month_from=2024-01&month_to=2024-03', 'aggregations_v2_bucket_totals_get'],
    ['/aggregations/v2/totals/categories?from=2024-01&to=2024-03', 'v2_category_totals_get'],
    ['/v1/affordability/report?month_from=2024-01&month_to=2024-03', ''],
    ['/financial/v2/transactions?', 'financial_v2_transactions_get'],
    ['/financial/v2/accounts?', ''],
  ];

  it('is a 400 failed_validation naming the currency on every endpoint that takes one', async () => {
    for (const [url, operationId] of ENDPOINTS) {
      const res = await served.api.call<{ operation_id: string; code_id: string; errors: Record<string, string> }>('GET', `${url}&currency=XYZ`, { headers: served.headers });
      expect(res.status, url).toBe(400);
      expect(res.body.code_id).toBe('failed_validation');
      expect(res.body.errors).toEqual({ currency: UNKNOWN });
      if (operationId) expect(res.body.operation_id).toBe(operationId);
    }
  });

  it('answers a known currency without data with zero figures, not an error', async () => {
    for (const [url] of ENDPOINTS) expect((await served.api.call('GET', `${url}&currency=JPY`, { headers: served.headers })).status, url).toBe(200);
    expect((await served.api.call('GET', `${ENDPOINTS[0]?.[0]}&currency=gbp`, { headers: served.headers })).status).toBe(400);
  });
});

describe('an unknown currency in `afford report`', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestFile(ctx.pipeline, fixturePath('report-hand-computed.ndjson'), { batchRows: 1000 });
    await ctx.store.close();
  });
  afterAll(async () => ctx.cleanup());

  it('is one line on stderr and exit code 2, not an empty report', async () => {
    const env = { ...process.env, AFFORD_DB: ctx.store.path, AFFORD_LOG_LEVEL: 'silent' };
    const failed = run('node', [BIN, 'report', 'cust-report-1', '--from', '2024-01', '--to', '2024-03', '--currency', 'XYZ'], { env });
    await expect(failed).rejects.toMatchObject({ code: 2, stdout: '', stderr: 'afford report: --currency XYZ is not an ISO 4217 currency code such as GBP\n' });
  });
});
