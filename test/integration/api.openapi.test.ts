import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestMetrics } from '../../src/ingest/metrics.js';
import { startApi, type ApiHarness } from '../helpers/api.js';

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; parameters: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

const OPERATIONS: Array<[string, string, string]> = [
  ['post', '/v1/oauth/token', 'oauth_token_post'],
  ['post', '/aggregations/v2/buckets', 'aggregations_v2_buckets_post'],
  ['get', '/aggregations/v2/buckets', 'aggregations_v2_buckets_get'],
  ['get', '/aggregations/v2/buckets/{bucket_id}', 'aggregations_v2_bucket_get'],
  ['put', '/aggregations/v2/buckets/{bucket_id}', 'aggregations_v2_bucket_put'],
  ['delete', '/aggregations/v2/buckets/{bucket_id}', 'aggregations_v2_bucket_delete'],
  ['get', '/aggregations/v2/buckets/{bucket_id}/totals', 'aggregations_v2_bucket_totals_get'],
  ['get', '/financial/v2/transactions', 'financial_v2_transactions_get'],
  ['get', '/financial/v2/accounts', 'financial_v2_accounts'],
  ['get', '/core/v1/customer-applications/{application_id}', 'v1_customer_application_get'],
  ['get', '/resources/v2/categories', 'resources_v2_categories_get'],
  ['get', '/resources/v2/categories/models', 'resources_v2_models_get'],
  ['get', '/aggregations/v2/totals/categories', 'v2_category_totals_get'],
  ['get', '/healthz', 'healthz_get'],
  ['get', '/readyz', 'readyz_get'],
];

describe('GET /openapi.json, /healthz, /readyz', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({ metrics: new IngestMetrics() });
  });
  afterAll(async () => api.close());

  it('documents every operation with its operation_id, parameters and a resolvable response schema', async () => {
    const res = await api.call<OpenApi>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const [method, path, operationId] of OPERATIONS) {
      const op = doc.paths[path]?.[method];
      expect(op?.operationId, `${method} ${path}`).toBe(operationId);
      const success = Object.entries(op?.responses ?? {}).find(([status]) => status.startsWith('2'));
      // A 204 (a bucket definition's replace and delete) has no body to describe.
      if (success?.[0] === '204') {
        expect(success[1].content).toBeUndefined();
        continue;
      }
      const ref = success?.[1].content?.['application/json']?.schema.$ref ?? '';
      expect(doc.components.schemas[ref.replace('#/components/schemas/', '')], ref).toBeDefined();
    }
    const totals = doc.paths['/aggregations/v2/buckets/{bucket_id}/totals']?.get;
    expect(totals?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:bucket_id', 'query:group_by', 'query:month_from', 'query:month_to', 'query:currency', 'header:X-Customer-ID']),
    );
    // No dangling references anywhere in the document.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? '');
    for (const r of refs) expect(doc.components.schemas[r], r).toBeDefined();
  });

  it('answers /healthz and /readyz without auth', async () => {
    expect((await api.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await api.call('GET', '/readyz')).body).toEqual({ status: 'ready' });
  });

  it('serves /metrics without auth when the worker gives its metrics', async () => {
    const res = await fetch(`${api.base}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('afford_events_ingested_total');
  });
});
