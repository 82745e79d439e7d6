import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/rows.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { rows } from '../helpers/store.js';
import { validationBody } from '../helpers/api.js';
import { ServiceUnderTest, tempDbPath, transactionData } from '../helpers/webhooks.js';

const CLIENT = 'client-fp';
const OP = 'v2_ingest_transactions_post';

interface Accepted {
  operation_id: string;
  data: { task_id: string; status: string };
  metadata: { task_id: string; next_url: string; next_url_delay: number };
}
interface Rejected {
  operation_id: string;
  code_id: string;
  message: string;
  metadata: Record<string, unknown>;
  errors: Record<string, string>;
}

const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => transactionData(`${prefix}-${i}`, { amount: '1.00' }));

describe('first-party ingestion: POST /v2/ingest/transactions', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  let receiver: Receiver;
  const post = async <T>(body: unknown, clientId = CLIENT) =>
    service.call<T>('POST', '/v2/ingest/transactions', { headers: await service.auth(clientId), body });
  const transactionCount = async () => (await rows<{ n: number }>(service.store, 'SELECT count(*)::INTEGER AS n FROM transactions'))[0]?.n;

  beforeAll(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
    receiver = await startReceiver(() => 200);
    await service.subscribe({ clientId: CLIENT, url: receiver.url, events: ['first_party_ingester.ingest.succeeded'] });
  });
  afterAll(async () => {
    await receiver.close();
    await service.close();
    db.cleanup();
  });

  it('writes the transactions through the pipeline as a task, then fires the ingestion webhook', async () => {
    const res = await post<Accepted>([
      { customer_id: 'fp-1', transactions: [transactionData('a1', { amount: '10.00' }), transactionData('a2', { amount: '5.50', dateTime: '2024-04-01T12:00:00Z' })] },
      { customer_id: 'fp-2', transactions: [transactionData('b1', { amount: '7.25' })] },
    ]);
    expect(res.status).toBe(202);
    const taskId = res.body.data.task_id;
    expect(res.body).toEqual({
      operation_id: OP,
      data: { task_id: taskId, status: 'Completed' },
      metadata: { task_id: taskId, next_url: `/ingestion/v3/tasks/${taskId}`, next_url_delay: 0 },
    });

    const stored = await service.store.read((conn) =>
      queryRows(conn, 'SELECT c.client_id, t.customer_id, t.transaction_id, t.amount FROM transactions t JOIN customers c USING (customer_id) ORDER BY 3'),
    );
    expect(stored).toEqual([
      { client_id: CLIENT, customer_id: 'fp-1', transaction_id: 'a1', amount: '10.00' },
      { client_id: CLIENT, customer_id: 'fp-1', transaction_id: 'a2', amount: '5.50' },
      { client_id: CLIENT, customer_id: 'fp-2', transaction_id: 'b1', amount: '7.25' },
    ]);
    // Monthly totals come in the same transaction, as for Kafka and files.
    expect(await rows(service.store, "SELECT strftime(month, '%Y-%m') AS month, total FROM monthly_category_totals WHERE customer_id = 'fp-1' ORDER BY 1")).toEqual([
      { month: '2024-03', total: '10.00' },
      { month: '2024-04', total: '5.50' },
    ]);
    const [task] = await service.store.read((conn) => queryRows(conn, "SELECT task_type, status, result, detail::VARCHAR AS detail FROM tasks WHERE task_id = $1", [taskId]));
    expect(task).toMatchObject({ task_type: 'ingestion', status: 'Completed', result: 'success' });
    expect(JSON.parse(String(task?.['detail']))).toMatchObject({ customers: 2, transactions: 3, inserted: 3, rejected: 0 });

    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook?.body.toString('utf8') ?? '')).toEqual({
      data: { event: 'first_party_ingester.ingest.succeeded', operation_id: OP, task_id: taskId },
    });
  });

  it('takes exactly 1,000 transactions', async () => {
    const before = await transactionCount();
    const res = await post<Accepted>([
      { customer_id: 'fp-big-1', transactions: many(600, 'big1') },
      { customer_id: 'fp-big-2', transactions: many(400, 'big2') },
    ]);
    expect(res.status).toBe(202);
    expect(await transactionCount()).toBe((before ?? 0) + 1000);
  });

  it('refuses 1,001 transactions with 400 in the error format of the interface, naming the first item over the limit, and stores nothing', async () => {
    const before = await transactionCount();
    const res = await post<Rejected>([
      { customer_id: 'fp-over-1', transactions: many(501, 'over1') },
      { customer_id: 'fp-over-2', transactions: many(500, 'over2') },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationBody(OP, { '[1].transactions[499]': 'is transaction 1001: at most 1000 transactions are accepted in one request' }));
    expect(await transactionCount()).toBe(before);
  });

  it('refuses more entries than transactions it may take before it looks at any of them', async () => {
    const before = await transactionCount();
    // 200,000 empty entries: each would have been an error of its own, all built before the answer was cut to a few.
    const res = await post<Rejected>(Array.from({ length: 200_000 }, () => ({})));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      validationBody(OP, { body: 'must hold at most 1000 customers: each holds at least one transaction, and at most 1000 transactions are accepted in one request' }),
    );
    expect(await transactionCount()).toBe(before);
  });

  it('keeps the last of several versions of one transaction in a request, as if they had come one after another', async () => {
    const versions = Array.from({ length: 12 }, (_, k) => transactionData('fp-versions-tx', { amount: `${k + 1}.00` }));
    const res = await post<Accepted>([{ customer_id: 'fp-versions', transactions: versions }]);
    expect(res.status).toBe(202);
    expect(await rows(service.store, "SELECT amount FROM transactions WHERE customer_id = 'fp-versions'")).toEqual([{ amount: '12.00' }]);
    expect(await rows(service.store, "SELECT total, transaction_count FROM monthly_category_totals WHERE customer_id = 'fp-versions'")).toEqual([
      { total: '12.00', transaction_count: 1 },
    ]);
  });

  it('refuses a merchant holding text that is not valid Unicode, as files and Kafka do, and stores none of the request', async () => {
    const before = await transactionCount();
    const odd = transactionData('odd-merchant');
    const bad = { ...odd, enrichments: { ...odd.enrichments, merchant: { display_name: 'Shop', note: 'a\ud800b' } } };
    const res = await post<Rejected>([{ customer_id: 'fp-merchant', transactions: [transactionData('fine'), bad] }]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ '[0].transactions[1].enrichments.merchant': 'must be valid Unicode text throughout' });
    expect(await transactionCount()).toBe(before);
  });

  it('refuses a transaction that would make an event over the size every source allows, and stores none of the request', async () => {
    const before = await transactionCount();
    const big = transactionData('big-merchant');
    // A merchant's own fields pass as they come; 70 KB of them makes an event no file or Kafka message may be.
    const overlong = { ...big, enrichments: { ...big.enrichments, merchant: { display_name: 'Shop', notes: 'n'.repeat(70_000) } } };
    const res = await post<Rejected>([{ customer_id: 'fp-big-event', transactions: [transactionData('fine-2'), overlong] }]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ '[0].transactions[1]': 'makes an event longer than 65536 bytes' });
    expect(await transactionCount()).toBe(before);
    // Just under the limit, it goes in.
    const under = { ...big, transaction_id: 'under-limit', enrichments: { ...big.enrichments, merchant: { display_name: 'Shop', notes: 'n'.repeat(60_000) } } };
    expect((await post<Accepted>([{ customer_id: 'fp-big-event', transactions: [under] }])).status).toBe(202);
    expect(await transactionCount()).toBe((before ?? 0) + 1);
  });

  it('refuses an invalid transaction with 400 naming the offending item and field, and stores none of the request', async () => {
    const before = await transactionCount();
    const bad = { ...transactionData('bad'), amount: { value: '-3.00', currency: 'GBP' } };
    const res = await post<Rejected>([
      { customer_id: 'fp-3', transactions: [transactionData('ok-1')] },
      { customer_id: 'fp-4', transactions: [transactionData('ok-2'), bad] },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.code_id).toBe('failed_validation');
    expect(res.body.operation_id).toBe(OP);
    expect(Object.keys(res.body.errors)).toEqual(['[1].transactions[1].amount.value']);
    expect(await transactionCount()).toBe(before);

    const missing = await post<Rejected>([{ transactions: [transactionData('x')] }]);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ '[0].customer_id': 'is required' });
    const notArray = await post<Rejected>({ customer_id: 'fp-5', transactions: [] });
    expect(notArray.status).toBe(400);
  });

  it("writes another client's customer of the same id as that client's own, never into this client's", async () => {
    const res = await post<Accepted>([{ customer_id: 'fp-1', transactions: [transactionData('a1', { amount: '66.66' })] }], 'client-intruder');
    expect(res.status).toBe(202);
    const [task] = await service.store.read((conn) => queryRows(conn, 'SELECT client_id, detail::VARCHAR AS detail FROM tasks WHERE task_id = $1', [res.body.data.task_id]));
    expect(task?.['client_id']).toBe('client-intruder');
    expect(JSON.parse(String(task?.['detail']))).toMatchObject({ inserted: 1, updated: 0, rejected: 0 });
    const a1 = await service.store.read((conn) =>
      queryRows(conn, "SELECT client_id, amount FROM transactions WHERE customer_id = 'fp-1' AND transaction_id = 'a1' ORDER BY client_id"),
    );
    expect(a1).toEqual([
      { client_id: 'client-fp', amount: '10.00' },
      { client_id: 'client-intruder', amount: '66.66' },
    ]);
  });

  it('is in the OpenAPI document with the refresh and JWKS routes', async () => {
    const res = await service.call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/v2/ingest/transactions', '/v1/open-banking/refresh', '/v1/open-banking/refresh/{task_id}', '/.well-known/jwks.json']),
    );
  });

  it('answers 401 without credentials', async () => {
    const res = await service.call('POST', '/v2/ingest/transactions', { body: [{ customer_id: 'fp-6', transactions: [transactionData('z')] }] });
    expect(res.status).toBe(401);
  });
});
