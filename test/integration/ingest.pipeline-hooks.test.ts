import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../src/app/pipeline.js';
import { Store } from '../../src/db/store.js';
import { IngestPipeline } from '../../src/ingest/pipeline.js';
import { validateSubscription } from '../../src/webhooks/subscription-input.js';
import { SubscriptionsRepository } from '../../src/webhooks/subscriptions.repository.js';
import { afford } from '../helpers/cli.js';
import { rows, silentLogger } from '../helpers/store.js';
import { deletionEvent, paymentEvent, tempDbPath, transactionEvent } from '../helpers/webhooks.js';

const CLIENT = 'client-hooks';
const EVENTS = ['customers.deleted', 'payment.single.status_updated'];

/** A store with a webhook subscription of CLIENT to the payment and deletion notices. */
async function subscribedStore(dbPath: string): Promise<Store> {
  const store = await Store.open(dbPath, silentLogger);
  await new SubscriptionsRepository(store).add(validateSubscription({ clientId: CLIENT, url: 'https://example.invalid/hook', events: EVENTS }));
  return store;
}

const outbox = (store: Store) => rows<{ event: string; customer_id: string }>(store, 'SELECT event, customer_id FROM webhook_outbox ORDER BY event');

describe('an ingest pipeline and its webhook hooks', () => {
  let db: ReturnType<typeof tempDbPath>;
  afterEach(() => db?.cleanup());

  it('cannot be built without them', async () => {
    db = tempDbPath();
    const store = await Store.open(db.dbPath, silentLogger);
    try {
      // The hooks are a required argument: leaving them out does not compile, and does not run either.
      // @ts-expect-error the webhook hooks are missing
      expect(() => new IngestPipeline(store, silentLogger)).toThrow(TypeError);
    } finally {
      await store.close();
    }
  });

  it('are in every pipeline the composition root builds: its batches enqueue their webhooks', async () => {
    db = tempDbPath();
    const store = await subscribedStore(db.dbPath);
    try {
      const pipeline = buildPipeline(store, silentLogger);
      const events = [transactionEvent(CLIENT, 'cust-1', 'tx-1'), paymentEvent(CLIENT, 'cust-1', 'single'), deletionEvent(CLIENT, 'cust-2')];
      await pipeline.ingest(events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file', sourceRef: 'test', lineNumber: i + 1 } })));
      expect(await outbox(store)).toEqual([
        { event: 'customers.deleted', customer_id: 'cust-2' },
        { event: 'payment.single.status_updated', customer_id: 'cust-1' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('are in the pipeline of `afford ingest file` run as its own process', async () => {
    db = tempDbPath();
    await (await subscribedStore(db.dbPath)).close();
    const file = path.join(path.dirname(db.dbPath), 'events.ndjson');
    writeFileSync(file, `${[paymentEvent(CLIENT, 'cust-1', 'single'), deletionEvent(CLIENT, 'cust-2')].map((e) => JSON.stringify(e)).join('\n')}\n`);
    const run = await afford(['ingest', 'file', file], { ...process.env, AFFORD_DB: db.dbPath, AFFORD_LOG_LEVEL: 'silent' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const store = await Store.open(db.dbPath, silentLogger);
    try {
      expect(await outbox(store)).toEqual([
        { event: 'customers.deleted', customer_id: 'cust-2' },
        { event: 'payment.single.status_updated', customer_id: 'cust-1' },
      ]);
    } finally {
      await store.close();
    }
  });
});
