import { afterEach, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../src/app/pipeline.js';
import { Store } from '../../src/db/store.js';
import { prepareItems } from '../../src/ingest/prepare.js';
import type { RawItem } from '../../src/ingest/types.js';
import { validateSubscription } from '../../src/webhooks/subscription-input.js';
import { SubscriptionsRepository } from '../../src/webhooks/subscriptions.repository.js';
import { rows, silentLogger } from '../helpers/store.js';
import { deletionEvent, paymentEvent, tempDbPath, transactionEvent } from '../helpers/webhooks.js';

const CLIENT = 'client-del';

/** A store whose client is subscribed to the payment and deletion notices, and its pipeline. */
async function subscribed(dbPath: string) {
  const store = await Store.open(dbPath, silentLogger);
  await new SubscriptionsRepository(store).add(validateSubscription({ clientId: CLIENT, url: 'https://example.invalid/hook', events: ['customers.deleted', 'payment.single.status_updated'] }));
  return { store, pipeline: buildPipeline(store, silentLogger) };
}

const items = (events: readonly object[], from: number): RawItem[] =>
  events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file', sourceRef: 'deletion.ndjson', lineNumber: from + i } }));

/** What the deletion must leave of the customer's: nothing in the dead letters, only the deletion's notice in the outbox. */
const leftOf = async (store: Store) => ({
  dead: await rows<{ line_number: string }>(store, "SELECT line_number FROM dead_letters WHERE contains(raw, '\"customer_id\":\"cust-del\"') ORDER BY 1"),
  outbox: await rows<{ event: string }>(store, "SELECT event FROM webhook_outbox WHERE customer_id = 'cust-del' ORDER BY 1"),
});

describe("a customer's deletion later in the same batch", () => {
  const dbs: ReturnType<typeof tempDbPath>[] = [];
  afterEach(() => dbs.splice(0).forEach((d) => d.cleanup()));

  it('removes the dead letters and payment notices of that customer that came before it, as it does when they came in an earlier batch', async () => {
    const bad = { ...transactionEvent(CLIENT, 'cust-del', 'tx-bad'), data: { ...transactionEvent(CLIENT, 'cust-del', 'tx-bad').data, amount: { value: '-1', currency: 'GBP' } } };
    const events = [transactionEvent(CLIENT, 'cust-del', 'tx-1'), bad, paymentEvent(CLIENT, 'cust-del', 'single'), deletionEvent(CLIENT, 'cust-del')];
    const oneDb = tempDbPath();
    const twoDb = tempDbPath();
    dbs.push(oneDb, twoDb);
    const one = await subscribed(oneDb.dbPath);
    const two = await subscribed(twoDb.dbPath);
    try {
      const result = await one.pipeline.ingestPrepared(prepareItems(items(events, 1)));
      // The source still hears of the dead letter (a Kafka batch's DLQ copy): only the store's row goes with the customer.
      expect(result.deadLetters.map((d) => d.ref.lineNumber)).toEqual([2]);
      await two.pipeline.ingestPrepared(prepareItems(items(events.slice(0, 3), 1)));
      await two.pipeline.ingestPrepared(prepareItems(items(events.slice(3), 4)));
      const inOne = await leftOf(one.store);
      expect(inOne).toEqual({ dead: [], outbox: [{ event: 'customers.deleted' }] });
      expect(inOne).toEqual(await leftOf(two.store));
    } finally {
      await one.store.close();
      await two.store.close();
    }
  });

  it('queues one notice for two deletions of a customer in one batch, the later one, as two batches leave in the outbox', async () => {
    const first = { ...deletionEvent(CLIENT, 'cust-del'), occurred_at: '2024-05-01T00:00:00Z' };
    const second = { ...deletionEvent(CLIENT, 'cust-del'), occurred_at: '2024-05-02T00:00:00Z' };
    const events = [transactionEvent(CLIENT, 'cust-del', 'tx-1', { occurredAt: '2024-04-01T00:00:00Z' }), first, second];
    const oneDb = tempDbPath();
    const twoDb = tempDbPath();
    dbs.push(oneDb, twoDb);
    const one = await subscribed(oneDb.dbPath);
    const two = await subscribed(twoDb.dbPath);
    const notices = (store: Store) => rows<{ body: string }>(store, "SELECT body::VARCHAR AS body FROM webhook_outbox WHERE event = 'customers.deleted' ORDER BY 1");
    try {
      await one.pipeline.ingestPrepared(prepareItems(items(events, 1)));
      await two.pipeline.ingestPrepared(prepareItems(items(events.slice(0, 2), 1)));
      await two.pipeline.ingestPrepared(prepareItems(items(events.slice(2), 3)));
      const inOne = await notices(one.store);
      expect(inOne).toHaveLength(1);
      expect(JSON.parse(inOne[0]?.body ?? '{}')).toMatchObject({ data: { event: 'customers.deleted', customer_id: 'cust-del', deleted_at: '2024-05-02T00:00:00.000Z' } });
      expect(inOne).toEqual(await notices(two.store));
    } finally {
      await one.store.close();
      await two.store.close();
    }
  });
});
