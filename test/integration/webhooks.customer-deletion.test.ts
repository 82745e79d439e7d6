import type { DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteCustomer } from '../../src/cli/customers.js';
import { queryRows } from '../../src/db/rows.js';
import type { Store } from '../../src/db/store.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { fixturePath, rows } from '../helpers/store.js';
import { ServiceUnderTest, deletionEvent, eventually, paymentEvent, tempDbPath } from '../helpers/webhooks.js';
import { rowsAs } from '../helpers/rows.js';

const CLIENT = 'client-a';
const DELETED = 'cust-1';
const KEPT = 'cust-2';

/** The base tables of the schema with a column of this name. */
async function tablesWith(conn: DuckDBConnection, column: string): Promise<string[]> {
  const tables = await rowsAs<{ table_name: string }>(
    conn,
    `SELECT c.table_name
     FROM information_schema.columns c
     JOIN information_schema.tables t USING (table_catalog, table_schema, table_name)
     WHERE c.column_name = $1 AND t.table_type = 'BASE TABLE'
       AND c.table_schema = 'main' AND c.table_catalog = current_database()
     ORDER BY 1`,
    [column],
  );
  return tables.map((t) => t.table_name);
}

/**
 * Every base table of the schema with a customer_id column, found through
 * information_schema, so a table added later is covered without touching
 * this test. A customer is (client_id, customer_id): each such table has both.
 */
async function rowsPerTable(store: Store, customerId: string, clientId: string = CLIENT): Promise<Record<string, number>> {
  return store.read(async (conn) => {
    const counts: Record<string, number> = {};
    for (const table_name of await tablesWith(conn, 'customer_id')) {
      // An identifier from the catalogue, quoted; the values are bound.
      const [row] = await rowsAs<{ n: number }>(
        conn,
        `SELECT count(*)::INTEGER AS n FROM "${table_name.replaceAll('"', '""')}" WHERE client_id = $1 AND customer_id = $2`,
        [clientId, customerId],
      );
      counts[table_name] = row?.n ?? 0;
    }
    return counts;
  });
}

describe('customer deletion', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  let receiver: Receiver;

  beforeEach(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath);
    receiver = await startReceiver(() => 200);
    await service.subscribe({ clientId: CLIENT, url: receiver.url, events: ['customers.deleted', 'payment.single.status_updated', 'open_banking.refresh.completed'] });
    // Transactions (one deleted: a tombstone), accounts, balances, totals, an application...
    for (const f of ['hand-computed.ndjson', 'api-customers.ndjson']) await ingestFile(service.pipeline, fixturePath(f), { batchRows: 1000 });
    // ...a completed refresh task and its webhook, a payment webhook...
    const { task } = await service.runtime.refresh.request(CLIENT, DELETED, { provider: 'Monzo' });
    await service.runtime.refresh.settled(task.taskId);
    await service.ingest([paymentEvent(CLIENT, DELETED, 'single')]);
    await receiver.waitFor(2);
    // ...and a stored affordability report (one part: reports are stored in parts).
    await service.store.write((conn) =>
      conn.run(
        `INSERT INTO affordability_report_parts VALUES ($1, $2, 3, DATE '2024-01-01', DATE '2024-03-01', 'GBP', current_timestamp::TIMESTAMP, 'test', 0, '{}')`,
        [DELETED, CLIENT],
      ),
    );
  });
  afterEach(async () => {
    await receiver.close();
    await service.close();
    db.cleanup();
  });

  it('keys every table of customer data by client too', async () => {
    const [withCustomer, withClient] = await service.store.read(async (conn) => [await tablesWith(conn, 'customer_id'), await tablesWith(conn, 'client_id')]);
    expect(withCustomer.length).toBeGreaterThanOrEqual(10);
    expect(withCustomer.filter((t) => !withClient.includes(t))).toEqual([]);
  });

  it('has something of the customer in every kind of table before', async () => {
    const before = await rowsPerTable(service.store, DELETED);
    for (const table of ['customers', 'transactions', 'monthly_category_totals', 'accounts', 'balances', 'customer_applications', 'affordability_report_parts', 'tasks', 'webhook_outbox', 'tombstones']) {
      expect(before[table], table).toBeGreaterThan(0);
    }
  });

  it('`afford customers delete` removes every row of the customer in one go and sends customers.deleted', async () => {
    const keptBefore = await rowsPerTable(service.store, KEPT);
    const [{ n: deadBefore } = { n: 0 }] = await rows<{ n: number }>(service.store, `SELECT count(*)::INTEGER AS n FROM dead_letters WHERE contains(raw, '"customer_id":"${DELETED}"')`);
    const outcome = await deleteCustomer(service.pipeline, DELETED);
    expect(outcome.deleted).toBe(true);

    const after = await rowsPerTable(service.store, DELETED);
    // Left by design: the tombstone that stops older events from bringing the customer back, and the notice itself.
    const leftovers = Object.entries(after).filter(([, n]) => n > 0);
    expect(leftovers).toEqual([
      ['tombstones', 1],
      ['webhook_outbox', 1],
    ]);
    const ofDeleted = (sql: string) => service.store.read((conn) => queryRows(conn, sql, [DELETED]));
    expect(await ofDeleted('SELECT record_type FROM tombstones WHERE customer_id = $1')).toEqual([{ record_type: 'customer' }]);
    expect(await ofDeleted('SELECT event FROM webhook_outbox WHERE customer_id = $1')).toEqual([{ event: 'customers.deleted' }]);
    // The attempts of their earlier webhooks went with them.
    expect(await rows(service.store, 'SELECT count(*)::INTEGER AS n FROM webhook_attempts a ANTI JOIN webhook_outbox o USING (delivery_id)')).toEqual([{ n: 0 }]);
    // Another customer of the same client keeps everything.
    expect(await rowsPerTable(service.store, KEPT)).toEqual(keptBefore);
    // The fixture's bad lines named the customer: as dead letters they held their data, and went with them.
    expect(await rows(service.store, `SELECT count(*)::INTEGER AS n FROM dead_letters WHERE contains(raw, '"customer_id":"${DELETED}"')`)).toEqual([{ n: 0 }]);
    expect(deadBefore).toBeGreaterThan(0);

    const [notice] = (await receiver.waitFor(3)).slice(2);
    expect(JSON.parse(notice?.body.toString('utf8') ?? '')).toEqual({
      data: { event: 'customers.deleted', customer_id: DELETED, deleted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) },
    });
    expect(notice?.headers['x-webhook-event']).toBe('customers.deleted');

    // Deleting again: there is no such customer any more.
    expect(await deleteCustomer(service.pipeline, DELETED)).toEqual({ deleted: false, reason: `no customer ${DELETED}` });
  });

  it('a customer.deleted event from a file or Kafka does the same, once', async () => {
    const event = deletionEvent(CLIENT, DELETED);
    const result = await service.ingest([event]);
    expect(result.deletedCustomers).toHaveLength(1);
    const leftovers = Object.entries(await rowsPerTable(service.store, DELETED)).filter(([, n]) => n > 0).map(([t]) => t);
    expect(leftovers).toEqual(['tombstones', 'webhook_outbox']);
    await service.ingest([event]); // a replay
    await receiver.waitFor(3);
    await eventually(async () => {
      const [r] = await rows<{ n: number }>(service.store, "SELECT count(*)::INTEGER AS n FROM webhook_outbox WHERE status = 'pending'");
      return r?.n === 0 ? true : undefined;
    });
    expect(receiver.requests.filter((q) => q.headers['x-webhook-event'] === 'customers.deleted')).toHaveLength(1);
  });
});
