import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { validateSubscription } from '../../src/webhooks/subscription-input.js';
import { SubscriptionsRepository } from '../../src/webhooks/subscriptions.repository.js';
import { applyMigrationsBefore, rows, silentLogger } from '../helpers/store.js';
import { paymentEvent, tempDbPath, transactionEvent } from '../helpers/webhooks.js';

const items = (events: readonly object[]) =>
  events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file' as const, sourceRef: 'clients.ndjson', lineNumber: i + 1 } }));

const deletion = (clientId: string, eventId: string) =>
  ({ event_id: eventId, type: 'customer.deleted', occurred_at: new Date().toISOString(), client_id: clientId, customer_id: 'cust-x', data: {} });

async function open(dbPath: string) {
  const store = await Store.open(dbPath, silentLogger);
  const subscriptions = new SubscriptionsRepository(store);
  for (const clientId of ['client-a', 'client-b']) {
    await subscriptions.add(validateSubscription({ clientId, url: `https://example.invalid/${clientId}`, events: ['customers.deleted', 'payment.single.status_updated'] }));
  }
  return { store, pipeline: buildPipeline(store, silentLogger) };
}

const notices = (store: Store) =>
  rows<{ client_id: string; event: string }>(store, 'SELECT client_id, event FROM webhook_outbox ORDER BY ALL');

describe('events with effects beyond rows, handled once per client', () => {
  const dbs: ReturnType<typeof tempDbPath>[] = [];
  afterEach(() => dbs.splice(0).forEach((d) => d.cleanup()));

  it("handles two clients' events that share an event id each once: both deletions and both notices, and a replay repeats neither", async () => {
    const db = tempDbPath();
    dbs.push(db);
    const { store, pipeline } = await open(db.dbPath);
    try {
      await pipeline.ingest(items([transactionEvent('client-a', 'cust-x', 't-1'), transactionEvent('client-b', 'cust-x', 't-1')]));
      const events = [
        { ...paymentEvent('client-a', 'cust-a', 'single', 'pay-a'), event_id: 'evt-1' },
        { ...paymentEvent('client-b', 'cust-b', 'single', 'pay-b'), event_id: 'evt-1' },
        deletion('client-a', 'evt-2'),
        deletion('client-b', 'evt-2'),
      ];
      // One event a batch, then all again in one batch: the replay.
      for (const e of events) expect((await pipeline.ingest(items([e]))).skipped).toBe(0);
      expect((await pipeline.ingest(items(events))).skipped).toBe(4);

      expect(await rows(store, "SELECT client_id FROM customers WHERE customer_id = 'cust-x'")).toEqual([]);
      expect(await notices(store)).toEqual([
        { client_id: 'client-a', event: 'customers.deleted' },
        { client_id: 'client-a', event: 'payment.single.status_updated' },
        { client_id: 'client-b', event: 'customers.deleted' },
        { client_id: 'client-b', event: 'payment.single.status_updated' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('keeps events handled before, each under its client where the store still knows it, else for every client', async () => {
    const db = tempDbPath();
    dbs.push(db);
    // A store as it was before events were kept per client: the migrations before 016, and three handled events.
    const instance = await DuckDBInstance.create(db.dbPath);
    const conn = await instance.connect();
    await applyMigrationsBefore(conn, 16);
    await conn.run(`
      INSERT INTO handled_events (event_id, type) VALUES ('old-del', 'customer.deleted'), ('old-pay', 'payment.status_updated'), ('old-lost', 'payment.status_updated');
      INSERT INTO tombstones VALUES ('customer', 'client-a', 'cust-x', 'cust-x', TIMESTAMP '2024-03-10 00:00:00', 'old-del');
      INSERT INTO webhook_outbox (delivery_id, subscription_id, client_id, event_key, event, customer_id, body, status, attempts, created_at, updated_at)
      VALUES ('d-1', 's-1', 'client-b', 'event:old-pay', 'payment.single.status_updated', 'cust-b', '{}', 'delivered', 1, current_timestamp, current_timestamp);
    `);
    conn.closeSync();
    instance.closeSync();

    const { store, pipeline } = await open(db.dbPath);
    try {
      expect(await rows(store, 'SELECT client_id, event_id FROM handled_events ORDER BY ALL')).toEqual([
        { client_id: '', event_id: 'old-lost' },
        { client_id: 'client-a', event_id: 'old-del' },
        { client_id: 'client-b', event_id: 'old-pay' },
      ]);
      // Replays of the old events change nothing; the same ids from the other client are new to it.
      const replays = [
        { ...deletion('client-a', 'old-del'), occurred_at: '2024-03-11T00:00:00Z' },
        { ...paymentEvent('client-b', 'cust-b', 'single'), event_id: 'old-pay' },
        { ...paymentEvent('client-a', 'cust-a', 'single'), event_id: 'old-lost' },
        { ...paymentEvent('client-b', 'cust-b', 'single'), event_id: 'old-lost' },
      ];
      expect((await pipeline.ingest(items(replays))).skipped).toBe(4);
      const fresh = [{ ...paymentEvent('client-a', 'cust-a', 'single'), event_id: 'old-pay' }];
      expect((await pipeline.ingest(items(fresh))).skipped).toBe(0);
    } finally {
      await store.close();
    }
  });
});
