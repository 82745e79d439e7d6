import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/rows.js';
import { validationBody } from '../helpers/api.js';
import { REFERENCE, expectReferenceShape } from '../helpers/reference-shapes.js';
import { ServiceUnderTest, tempDbPath, transactionData } from '../helpers/webhooks.js';

const CLIENT = 'client-ref';
const OP = 'v2_ingest_transactions_post';
const V3 = 'application/bud-transaction-v3+json';
const V2 = 'application/bud-transaction-v2+json';

/** A transaction as the reference's v3 body has it: a signed amount, a separate currency, no categories. */
const v3 = (id: string, amount: string, extra: Record<string, unknown> = {}) => ({
  transaction_id: id,
  account_id: 'acc-1',
  description: 'caffe nero 495 ladbroke london gbr',
  date_time: '2024-03-05T10:00:00Z',
  amount,
  currency: 'GBP',
  ...extra,
});

describe('first-party ingestion as a client of the reference API sends it', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  const send = async (body: unknown, contentType: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.base}/v2/ingest/transactions`, {
      method: 'POST',
      headers: { ...(await service.auth(CLIENT)), 'content-type': contentType, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const stored = (customerId: string) =>
    service.store.read((conn) =>
      queryRows(conn, 'SELECT transaction_id, credit_debit_indicator, amount, currency, category_l1, category_l2 FROM transactions WHERE client_id = $1 AND customer_id = $2 ORDER BY 1', [
        CLIENT,
        customerId,
      ]),
    );

  beforeAll(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
  });
  afterAll(async () => {
    await service.close();
    db.cleanup();
  });

  it('takes the v3 body (signed amounts, no categories) under its content type, with the task id in metadata', async () => {
    const res = await send(
      [
        { customer_id: 'ref-1', transactions: [v3('n1', '-3.29', { merchant_name: 'Caffè Nero' }), v3('n2', '2500.00', { description: 'ACME LTD SALARY' })] },
        { customer_idempotent_identifier: 'ref-2', transactions: [v3('m1', '-10.00', { status: 'pending', running_balance: '-42.10' })] },
      ],
      V3,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const accepted = expectReferenceShape(REFERENCE.ingestAccepted, res.body);
    expect(accepted.operation_id).toBe(OP);

    // Stored under the fallback pair general/other_general, the sign giving the direction.
    expect(await stored('ref-1')).toEqual([
      { transaction_id: 'n1', credit_debit_indicator: 'debit', amount: '3.29', currency: 'GBP', category_l1: 'general', category_l2: 'other_general' },
      { transaction_id: 'n2', credit_debit_indicator: 'credit', amount: '2500.00', currency: 'GBP', category_l1: 'general', category_l2: 'other_general' },
    ]);
    expect(await stored('ref-2')).toHaveLength(1);

    // The task's status, as the reference's ingestion status operation gives it, each customer named as it was sent.
    const status = await service.call('GET', `/ingestion/v3/tasks/${accepted.metadata.task_id}`, { headers: await service.auth(CLIENT) });
    expect(status.status).toBe(200);
    expect(expectReferenceShape(REFERENCE.ingestStatus, status.body)).toEqual({
      operation_id: 'v3_ingest_status_get',
      data: [
        { customer_id: 'ref-1', status: 'Completed', result: 'success' },
        { customer_idempotent_identifier: 'ref-2', status: 'Completed', result: 'success' },
      ],
      metadata: { task_id: accepted.metadata.task_id, status: 'Completed', result: 'success', ingest_route: OP, ingest_schema: V3 },
    });
  });

  it('counts a transaction without categories in core-dashboard’s general bucket, readable by either customer header', async () => {
    for (const header of ['x-customer-id', 'x-customer-idempotent-identifier']) {
      const headers = { ...(await service.auth(CLIENT)), [header]: 'ref-1' };
      const res = await service.call<{ data: Array<{ group_name: string; incoming: { total: { value: string } }; outgoing: { total: { value: string } } }> }>(
        'GET',
        '/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1&month_from=2024-03&month_to=2024-03',
        { headers },
      );
      expect(res.status, header).toBe(200);
      const general = res.body.data.find((g) => g.group_name === 'general');
      expect([general?.incoming.total.value, general?.outgoing.total.value]).toEqual(['2500.00', '3.29']);
    }
    const both = await service.call('GET', '/financial/v2/transactions', {
      headers: { ...(await service.auth(CLIENT)), 'x-customer-id': 'ref-1', 'x-customer-idempotent-identifier': 'ref-2' },
    });
    expect(both.status).toBe(400);
    expect(both.body).toEqual(validationBody('financial_v2_transactions_get', { 'X-Customer-Idempotent-Identifier': 'must name the same customer as X-Customer-ID' }));
  });

  it('takes the v2 content type with afford’s transaction fields, categories optional', async () => {
    const uncategorised: Record<string, unknown> = { ...transactionData('v2-1', { amount: '7.00' }) };
    delete uncategorised['enrichments'];
    const res = await send([{ customer_id: 'ref-3', transactions: [uncategorised, transactionData('v2-2')] }], V2);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await stored('ref-3')).map((r) => [r['transaction_id'], r['category_l1'], r['category_l2']])).toEqual([
      ['v2-1', 'general', 'other_general'],
      ['v2-2', 'food_and_drink', 'groceries'],
    ]);
    const status = await service.call<{ metadata: { ingest_schema?: string } }>('GET', `/ingestion/v3/tasks/${String((res.body['metadata'] as { task_id: string }).task_id)}`, {
      headers: await service.auth(CLIENT),
    });
    expect(status.body.metadata.ingest_schema).toBe(V2);
  });

  it('reports the customers whose events were not written: their part failed with the reason of each, the task partly completed or failed', async () => {
    // A customer with a secret, then a request that gives it another: valid in shape, yet not written.
    expect((await send([{ customer_id: 'ref-secret', customer_secret: 'the-first-secret', transactions: [transactionData('s-1')] }], V2)).status).toBe(202);
    const mixed = await send(
      [
        { customer_id: 'ref-fine', transactions: [transactionData('f-1')] },
        { customer_id: 'ref-secret', customer_secret: 'another-secret', transactions: [transactionData('s-2'), transactionData('s-3')] },
      ],
      V2,
    );
    expect(mixed.status).toBe(202);
    const taskOf = (res: { body: Record<string, unknown> }) => String((res.body['metadata'] as { task_id: string }).task_id);
    expect((mixed.body['data'] as { status: string }).status).toBe('PartialCompleted');
    const status = await service.call('GET', `/ingestion/v3/tasks/${taskOf(mixed)}`, { headers: await service.auth(CLIENT) });
    const mismatch = "customer_secret: does not match the customer's secret";
    expect(expectReferenceShape(REFERENCE.ingestStatus, status.body)).toEqual({
      operation_id: 'v3_ingest_status_get',
      data: [
        { customer_id: 'ref-fine', status: 'Completed', result: 'success' },
        { customer_id: 'ref-secret', status: 'Failed', result: 'data_mapping_error', error: { 'transactions[0]': mismatch, 'transactions[1]': mismatch } },
      ],
      metadata: { task_id: taskOf(mixed), status: 'PartialCompleted', result: 'data_mapping_error', ingest_route: OP, ingest_schema: V2 },
    });
    expect(await stored('ref-fine')).toHaveLength(1);
    expect((await stored('ref-secret')).map((r) => r['transaction_id'])).toEqual(['s-1']);
    // Every customer's part failed: the task failed.
    const failed = await send([{ customer_id: 'ref-secret', customer_secret: 'another-secret', transactions: [transactionData('s-4')] }], V2);
    expect((failed.body['data'] as { status: string }).status).toBe('Failed');
    const failedStatus = await service.call<{ metadata: { status: string; result: string } }>('GET', `/ingestion/v3/tasks/${taskOf(failed)}`, { headers: await service.auth(CLIENT) });
    expect(failedStatus.body.metadata).toMatchObject({ status: 'Failed', result: 'data_mapping_error' });
  });

  it("writes into a customer that is not hosted only with its secret, as the reference asks: the client's credentials alone write nothing", async () => {
    const taskOf = (res: { body: Record<string, unknown> }) => String((res.body['metadata'] as { task_id: string }).task_id);
    expect((await send([{ customer_id: 'ref-guarded', customer_secret: 'the-guarded-secret', transactions: [transactionData('g-1')] }], V2)).status).toBe(202);
    // Left out, in the same request as a hosted customer's transactions, which go in.
    const without = await send(
      [
        { customer_id: 'ref-open', transactions: [transactionData('o-1')] },
        { customer_id: 'ref-guarded', transactions: [transactionData('g-2')] },
      ],
      V2,
    );
    expect((without.body['data'] as { status: string }).status).toBe('PartialCompleted');
    const status = await service.call<{ data: unknown[] }>('GET', `/ingestion/v3/tasks/${taskOf(without)}`, { headers: await service.auth(CLIENT) });
    expect(status.body.data).toEqual([
      { customer_id: 'ref-open', status: 'Completed', result: 'success' },
      { customer_id: 'ref-guarded', status: 'Failed', result: 'data_mapping_error', error: { 'transactions[0]': 'customer_secret: is required, as the customer is not hosted' } },
    ]);
    expect((await stored('ref-guarded')).map((r) => r['transaction_id'])).toEqual(['g-1']);
    expect((await stored('ref-open')).map((r) => r['transaction_id'])).toEqual(['o-1']);
    // With its secret, it goes in.
    const withSecret = await send([{ customer_id: 'ref-guarded', customer_secret: 'the-guarded-secret', transactions: [transactionData('g-3')] }], V2);
    expect((withSecret.body['data'] as { status: string }).status).toBe('Completed');
    expect((await stored('ref-guarded')).map((r) => r['transaction_id'])).toEqual(['g-1', 'g-3']);
  });

  it('counts a wrong customer_secret in a body toward the lockout of wrong secrets, as one in a header: after ten, the customer is locked everywhere', async () => {
    expect((await send([{ customer_id: 'ref-locked', customer_secret: 'the-locked-secret', transactions: [transactionData('l-1')] }], V2)).status).toBe(202);
    // A right secret clears the count: nine wrong ones, a right one, then nine more do not lock.
    const wrong = (n: number) => send([{ customer_id: 'ref-locked', customer_secret: `guess-${n}`, transactions: [transactionData(`l-guess-${n}`)] }], V2);
    for (let n = 0; n < 9; n++) expect((await wrong(n)).status).toBe(202);
    expect((await send([{ customer_id: 'ref-locked', customer_secret: 'the-locked-secret', transactions: [transactionData('l-2')] }], V2)).status).toBe(202);
    for (let n = 9; n < 19; n++) expect((await wrong(n)).status).toBe(202);
    // The tenth wrong one in a row locked the customer: the right secret is refused too, in a body and in a header.
    const locked = await send([{ customer_id: 'ref-locked', customer_secret: 'the-locked-secret', transactions: [transactionData('l-3')] }], V2);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code_id: 'too_many_requests' });
    const read = await service.call('GET', '/financial/v2/transactions', { headers: { ...(await service.auth(CLIENT)), 'x-customer-id': 'ref-locked', 'x-customer-secret': 'the-locked-secret' } });
    expect(read.status).toBe(429);
    expect((await stored('ref-locked')).map((r) => r['transaction_id'])).toEqual(['l-1', 'l-2']);
    // Other customers are not locked with it.
    expect((await send([{ customer_id: 'ref-unlocked', customer_secret: 'its-own', transactions: [transactionData('u-1')] }], V2)).status).toBe(202);
  });

  it('takes one secret a customer a request, and counts requests sent side by side: neither is a way to try many secrets at once', async () => {
    expect((await send([{ customer_id: 'ref-many', customer_secret: '4217', transactions: [transactionData('m-1')] }], V2)).status).toBe(202);
    // A thousand entries of one customer, each with another secret: refused whole, naming the entries, nothing written.
    const guesses = Array.from({ length: 1000 }, (_, i) => String(4000 + i));
    const many = await send(guesses.map((g, i) => ({ customer_id: 'ref-many', customer_secret: g, transactions: [transactionData(`m-probe-${i}`)] })), V2);
    expect(many.status).toBe(400);
    expect((many.body['errors'] as Record<string, string>)['[1].customer_secret']).toBe('differs from the one given for the same customer in entry [0]: a request gives a customer one secret');
    expect((await stored('ref-many')).map((r) => r['transaction_id'])).toEqual(['m-1']);
    // Several entries of one customer with the same secret are one try, and fine.
    expect((await send([1, 2].map((n) => ({ customer_id: 'ref-many', customer_secret: '4217', transactions: [transactionData(`m-${n + 1}`)] })), V2)).status).toBe(202);
    // Twelve wrong requests side by side: no more than ten get through before the customer is locked.
    const side = await Promise.all(Array.from({ length: 12 }, (_, k) => send([{ customer_id: 'ref-many', customer_secret: `g${k}`, transactions: [transactionData(`m-side-${k}`)] }], V2)));
    expect(side.filter((r) => r.status === 202)).toHaveLength(10);
    expect(side.filter((r) => r.status === 429)).toHaveLength(2);
  });

  it('names v3 faults by the v3 fields, every one at once, and stores nothing of the request', async () => {
    const res = await send(
      [
        { transactions: [v3('bad-1', '12.345'), v3('bad-2', '-0.00')] },
        { customer_id: 'ref-4', customer_idempotent_identifier: 'ref-4', transactions: [v3('bad-3', '5.00', { currency: 'XYZ', date_time: 'yesterday' })] },
        { customer_id: 'ref-5', transactions: [v3('ok', '1.00')], transaction_windows: [{ from: '2024-01-01', to: '2024-02-01' }] },
      ],
      V3,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      validationBody(OP, {
        '[0].customer_id': 'is required',
        '[0].transactions[0].amount': expect.stringContaining('must be a decimal string'),
        '[0].transactions[1].amount': 'must be greater than 0',
        '[1].customer_idempotent_identifier': 'cannot be combined with customer_id',
        '[1].transactions[0].currency': expect.stringContaining('currency'),
        '[1].transactions[0].date_time': expect.any(String),
        '[2].transaction_windows': 'is not supported: afford clears no transactions by window; delete them with transaction.deleted events',
      }),
    );
    expect(await stored('ref-5')).toEqual([]);
  });

  it('refuses the reference headers that would store something else than afford does, and lets the harmless ones through', async () => {
    const generate = 'is not supported: afford keeps the transaction ids it is sent (send the same id again to replace a transaction)';
    const noCustomer = 'is not supported: afford stores every transaction under its customer';
    for (const [headers, errors] of [
      [{ 'X-Generate-Transaction-IDs': 'true' }, { 'X-Generate-Transaction-IDs': generate }],
      [{ 'x-no-customer': 'TRUE', 'X-Generate-Transaction-IDs': 'yes' }, { 'X-Generate-Transaction-IDs': generate, 'X-No-Customer': noCustomer }],
    ] as const) {
      const res = await send([{ customer_id: 'ref-7', transactions: [v3('h-1', '2.00')] }], V3, headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationBody(OP, errors));
    }
    expect(await stored('ref-7')).toEqual([]);
    const fine = await send([{ customer_id: 'ref-7', transactions: [v3('h-1', '2.00')] }], V3, {
      'X-No-Customer': 'false', 'X-Generate-Transaction-IDs': '', 'X-Bud-Categorisation-Model': 'uk-v2', 'X-Disable-Synchronous': 'true',
    });
    expect(fine.status).toBe(202);
    expect((await stored('ref-7')).map((r) => r['transaction_id'])).toEqual(['h-1']);
  });

  it('answers 404 task_not_found for an unknown task and for another client’s', async () => {
    const mine = await send([{ customer_id: 'ref-6', transactions: [v3('x', '1.00')] }], V3);
    const taskId = String((mine.body['metadata'] as { task_id: string }).task_id);
    for (const [client, id] of [['client-other', taskId], [CLIENT, 'no-such-task']] as const) {
      const res = await service.call('GET', `/ingestion/v3/tasks/${id}`, { headers: await service.auth(client) });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ operation_id: 'v3_ingest_status_get', code_id: 'task_not_found' });
    }
  });
});
