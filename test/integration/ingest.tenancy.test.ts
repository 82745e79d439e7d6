import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientsService } from '../../src/clients/clients.service.js';
import { deleteCustomer } from '../../src/cli/customers.js';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { queryRows } from '../../src/db/rows.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { rows } from '../helpers/store.js';
import { ServiceUnderTest, deletionEvent, paymentEvent, tempDbPath, transactionData } from '../helpers/webhooks.js';

/**
 * Two clients, one customer id: client B uses `c-1` first, then client A.
 * Each client's events, API calls, links, webhooks and deletion reach only
 * its own customer.
 */
const A = 'client-a';
const B = 'client-b';
const CUSTOMER = 'c-1';

let seq = 0;
const eventId = (client: string) => `tenancy-${client}-${++seq}`;

function salary(client: string, transactionId: string, amount: string, occurredAt = '2024-03-20T00:00:00Z') {
  const data = transactionData(transactionId, { amount, dateTime: '2024-03-10T08:00:00Z' });
  return {
    event_id: eventId(client),
    type: 'transaction.upserted',
    occurred_at: occurredAt,
    client_id: client,
    customer_id: CUSTOMER,
    data: {
      ...data,
      account_id: `acc-${client}`,
      description: `SALARY OF ${client}`,
      credit_debit_indicator: 'credit',
      enrichments: { categories: { l1: { slug: 'income', confidence: '0.9' }, l2: { slug: 'salary', confidence: '0.9' } } },
    },
  };
}

function groceries(client: string, transactionId: string, amount: string) {
  return {
    event_id: eventId(client),
    type: 'transaction.upserted',
    occurred_at: '2024-03-20T00:00:00Z',
    client_id: client,
    customer_id: CUSTOMER,
    data: { ...transactionData(transactionId, { amount, dateTime: '2024-03-12T08:00:00Z' }), account_id: `acc-${client}` },
  };
}

function account(client: string, holder: string) {
  return {
    event_id: eventId(client),
    type: 'account.upserted',
    occurred_at: '2024-03-20T00:00:00Z',
    client_id: client,
    customer_id: CUSTOMER,
    data: {
      account_id: `acc-${client}`,
      currency: 'GBP',
      holder: { name: holder, relationship: 'account_holder' },
      account_name: 'Current account',
      account_type: 'current',
      usage_type: 'personal',
      provider: 'Monzo',
      identifiers: {},
      balances: [{ date: '2024-03-31T00:00:00Z', amount: { value: '100.00', currency: 'GBP' }, type: 'expected', credit_debit_indicator: 'credit' }],
    },
  };
}

function application(client: string, applicationId: string) {
  return {
    event_id: eventId(client),
    type: 'application.upserted',
    occurred_at: '2024-03-20T00:00:00Z',
    client_id: client,
    customer_id: CUSTOMER,
    data: { application_id: applicationId, creation_date: '2024-03-01T00:00:00Z', primary_applicant: { first_name: 'Sam', last_name: client }, review_status: 'pending' },
  };
}

interface Page {
  data: Array<{ transaction_id: string; amount: { value: string } }>;
  metadata: { next_page_token?: string };
}

describe('two clients with the same customer id', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  const receivers: Record<string, Receiver> = {};

  /** Rows of c-1 per client in every base table with a customer_id column. */
  const rowsOf = (client: string) =>
    service.store.read(async (conn) => {
      const tables = await queryRows<{ table_name: string }>(
        conn,
        `SELECT DISTINCT c.table_name FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_catalog, table_schema, table_name)
         WHERE c.column_name = 'customer_id' AND t.table_type = 'BASE TABLE' AND c.table_schema = 'main' AND c.table_catalog = current_database()
         ORDER BY 1`,
      );
      const counts: Record<string, number> = {};
      for (const { table_name } of tables) {
        const [r] = await queryRows<{ n: number }>(conn, `SELECT count(*)::INTEGER AS n FROM "${table_name}" WHERE client_id = $1 AND customer_id = $2`, [client, CUSTOMER]);
        if (r && r.n > 0) counts[table_name] = r.n;
      }
      return counts;
    });

  const get = async <T>(client: string, path: string) => service.call<T>('GET', path, { headers: await service.auth(client, CUSTOMER) });

  /** Follows a transactions link through every page, as the client. */
  const follow = async (client: string, link: string) => {
    const ids: string[] = [];
    let next: string | undefined = link;
    while (next) {
      const res: { status: number; body: Page } = await get<Page>(client, next);
      expect(res.status, next).toBe(200);
      ids.push(...res.body.data.map((t) => t.transaction_id));
      next = res.body.metadata.next_page_token ? `${link}&page_token=${res.body.metadata.next_page_token}` : undefined;
    }
    return ids.sort();
  };

  beforeAll(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
    const clients = new ClientsService(new ClientsRepository(service.store));
    for (const client of [A, B]) {
      await clients.create(`test ${client}`, client);
      receivers[client] = await startReceiver(() => 200);
      await service.subscribe({ clientId: client, url: receivers[client]!.url, events: ['customers.deleted', 'payment.single.status_updated'] });
    }
  });
  afterAll(async () => {
    for (const r of Object.values(receivers)) await r.close();
    await service.close();
    db.cleanup();
  });

  it('stores client A\'s data after client B has claimed the customer id first', async () => {
    const b = await service.ingest([account(B, 'Bea B'), salary(B, 'tb-1', '1000.00'), groceries(B, 'tb-2', '40.00'), application(B, `app-${B}`)]);
    expect(b).toMatchObject({ read: 4, inserted: 4, deadLetters: [] });
    const a = await service.ingest([account(A, 'Alex A'), salary(A, 'ta-1', '2500.00'), groceries(A, 'ta-2', '12.34'), application(A, `app-${A}`)]);
    expect(a).toMatchObject({ read: 4, inserted: 4, updated: 0, skipped: 0, deadLetters: [] });
    // The same transaction id in both: each client's own record.
    expect(await service.ingest([groceries(A, 'shared', '1.00'), groceries(B, 'shared', '2.00')])).toMatchObject({ inserted: 2, deadLetters: [] });

    expect(await rows(service.store, `SELECT client_id, count(*)::INTEGER AS n FROM transactions WHERE customer_id = '${CUSTOMER}' GROUP BY 1 ORDER BY 1`)).toEqual([
      { client_id: A, n: 3 },
      { client_id: B, n: 3 },
    ]);
    expect(await rows(service.store, `SELECT client_id, hosted FROM customers WHERE customer_id = '${CUSTOMER}' ORDER BY 1`)).toEqual([
      { client_id: A, hosted: true },
      { client_id: B, hosted: true },
    ]);
    expect(await rows(service.store, 'SELECT count(*)::INTEGER AS n FROM dead_letters')).toEqual([{ n: 0 }]);
  });

  it('answers each client\'s transactions, accounts, totals, links, report and applications from its own data only', async () => {
    for (const [client, own, holder, income] of [[A, ['shared', 'ta-1', 'ta-2'], 'Alex A', '2500.00'], [B, ['shared', 'tb-1', 'tb-2'], 'Bea B', '1000.00']] as const) {
      const list = await get<Page>(client, '/financial/v2/transactions?date_from=2024-03-01&date_to=2024-03-31');
      expect(list.status).toBe(200);
      expect(list.body.data.map((t) => t.transaction_id).sort()).toEqual(own);
      expect(list.body.data.find((t) => t.transaction_id === 'shared')?.amount.value).toBe(client === A ? '1.00' : '2.00');

      const accounts = await get<{ data: Array<{ account_id: string; holder: { name: string } }> }>(client, '/financial/v2/accounts');
      expect(accounts.status).toBe(200);
      expect(accounts.body.data.map((x) => [x.account_id, x.holder.name])).toEqual([[`acc-${client}`, holder]]);

      const totals = await get<{ data: Array<{ group_name: string; incoming: { total: { value: string }; _links: { transactions: string } } }> }>(
        client,
        '/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1&month_from=2024-03&month_to=2024-03',
      );
      expect(totals.status).toBe(200);
      const incomeGroup = totals.body.data.find((g) => g.group_name === 'income');
      expect(incomeGroup?.incoming.total.value).toBe(income);
      // The link, followed by the same client, lists exactly that client's income.
      expect(await follow(client, incomeGroup?.incoming._links.transactions ?? '')).toEqual([own[1]]);

      const categories = await get<unknown>(client, '/aggregations/v2/totals/categories?from=2024-03&to=2024-03');
      expect(categories.status).toBe(200);
      expect(JSON.stringify(categories.body)).toContain(`"${income}"`);
      expect(JSON.stringify(categories.body)).not.toContain(`"${client === A ? '1000.00' : '2500.00'}"`);

      const report = await get<{ data: { assessment: { income: { total: { overall_total: { value: string } } } } }; metadata: { client_id: string } }>(
        client,
        '/v1/affordability/report?month_from=2024-03&month_to=2024-03',
      );
      expect(report.status).toBe(200);
      expect(report.body.metadata.client_id).toBe(client);
      expect(report.body.data.assessment.income.total.overall_total.value).toBe(income);

      const mine = await get<{ data: { customer_id: string } }>(client, `/core/v1/customer-applications/app-${client}`);
      expect(mine.status).toBe(200);
      const theirs = await get<unknown>(client, `/core/v1/customer-applications/app-${client === A ? B : A}`);
      expect(theirs.status).toBe(404);
    }
  });

  it('sends each client\'s webhooks to that client, and deleting B\'s customer leaves A\'s untouched', async () => {
    const aBefore = await rowsOf(A);
    expect(Object.keys(aBefore)).toEqual(
      expect.arrayContaining(['accounts', 'balances', 'customer_applications', 'customers', 'monthly_category_totals', 'transactions']),
    );

    await service.ingest([paymentEvent(A, CUSTOMER, 'single', 'pay-a'), paymentEvent(B, CUSTOMER, 'single', 'pay-b')]);
    // `afford customers delete c-1` must be told which client's customer it means.
    expect(await deleteCustomer(service.pipeline, CUSTOMER)).toEqual({
      deleted: false,
      reason: `customer ${CUSTOMER} exists for clients ${A}, ${B}: name one with --client`,
    });
    const deleted = await service.ingest([deletionEvent(B, CUSTOMER)]);
    expect(deleted).toMatchObject({ read: 1, deleted: 1, skipped: 0, deadLetters: [] });

    const toA = await receivers[A]!.waitFor(1);
    const toB = await receivers[B]!.waitFor(2);
    const events = (list: typeof toA) => list.map((r) => [r.headers['x-webhook-event'], JSON.parse(r.body.toString('utf8')) as unknown]);
    expect(events(toA)).toEqual([['payment.single.status_updated', expect.objectContaining({ data: expect.objectContaining({ payment_id: 'pay-a' }) })]]);
    expect(events(toB)).toEqual(
      expect.arrayContaining([
        ['payment.single.status_updated', expect.objectContaining({ data: expect.objectContaining({ payment_id: 'pay-b' }) })],
        ['customers.deleted', { data: { event: 'customers.deleted', customer_id: CUSTOMER, deleted_at: expect.any(String) } }],
      ]),
    );

    // A keeps every row (its payment webhook added one outbox row); B keeps only its tombstone and the notice.
    expect(await rowsOf(A)).toEqual({ ...aBefore, webhook_outbox: 1 });
    expect(await rowsOf(B)).toEqual({ tombstones: 1, webhook_outbox: 1 });
    expect((await get<Page>(A, '/financial/v2/transactions')).body.data).toHaveLength(3);
    expect((await get<unknown>(B, '/financial/v2/transactions')).status).toBe(404);
    expect(await deleteCustomer(service.pipeline, CUSTOMER, B)).toEqual({ deleted: false, reason: `no customer ${CUSTOMER} of client ${B}` });

    // B's tombstone holds back B's older events, not A's.
    const older = await service.ingest([salary(B, 'tb-old', '5.00', '2024-03-21T00:00:00Z'), salary(A, 'ta-old', '5.00', '2024-03-21T00:00:00Z')]);
    expect(older).toMatchObject({ inserted: 1, skipped: 1, deadLetters: [] });
    expect(await rows(service.store, `SELECT client_id, transaction_id FROM transactions WHERE transaction_id LIKE '%-old'`)).toEqual([{ client_id: A, transaction_id: 'ta-old' }]);
  });
});
