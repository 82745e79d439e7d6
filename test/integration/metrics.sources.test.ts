import { describe, expect, it } from 'vitest';
import { afford, useServe } from '../helpers/cli.js';
import { fixturePath } from '../helpers/store.js';

const TRANSACTION = {
  account_id: 'acc-http',
  provider: 'Monzo',
  description: 'CAFE',
  credit_debit_indicator: 'debit',
  amount: { value: '2.50', currency: 'GBP' },
  date_time: '2024-02-14T09:00:00Z',
  enrichments: { categories: { l1: { slug: 'food_and_drink' }, l2: { slug: 'coffee' } } },
};

/** The value of one sample line of the Prometheus text, 0 when absent. */
function sample(text: string, line: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

describe('/metrics of `afford serve`', () => {
  const service = useServe('afford-metrics-', { AFFORD_LOG_LEVEL: 'silent' });
  const { env } = service;

  it('counts events ingested by file (through the service) and by HTTP, with their source', async () => {
    const file = await afford(['ingest', 'file', fixturePath('hand-computed.ndjson')], env);
    expect(file.code).toBe(0);
    const created = await afford(['clients', 'create', '--id', 'client-a', '--name', 'metrics', '--json'], env);
    const { client_secret: secret } = JSON.parse(created.stdout) as { client_secret: string };

    const tokenRes = await fetch(`${service.serve.address}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-client-id': 'client-a', authorization: `Basic ${Buffer.from(`client-a:${secret}`).toString('base64')}` },
      body: 'grant_type=client_credentials',
    });
    const token = ((await tokenRes.json()) as { data: { access_token: string } }).data.access_token;
    const ingest = await fetch(`${service.serve.address}/v2/ingest/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-id': 'client-a', authorization: `Bearer ${token}` },
      body: JSON.stringify([{ customer_id: 'cust-http', transactions: [{ ...TRANSACTION, transaction_id: 'h1' }, { ...TRANSACTION, transaction_id: 'h2' }] }]),
    });
    expect(ingest.status).toBe(202);

    const text = await (await fetch(`${service.serve.address}/metrics`)).text();
    expect(sample(text, 'afford_events_ingested_total{source="http",type="transaction.upserted",outcome="applied"}')).toBe(2);
    expect(sample(text, 'afford_events_ingested_total{source="file",type="transaction.upserted",outcome="applied"}')).toBeGreaterThan(0);
    expect(sample(text, 'afford_dead_letters_total{source="file"}')).toBe(2);
    expect(sample(text, 'afford_ingest_batch_duration_seconds_count{source="file"}')).toBeGreaterThan(0);
    expect(sample(text, 'afford_ingest_batch_duration_seconds_count{source="http"}')).toBe(1);
  }, 60_000);
});
