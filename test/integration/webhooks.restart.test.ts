import { afterEach, describe, expect, it } from 'vitest';
import { DeliveriesRepository } from '../../src/webhooks/deliveries.repository.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { rows } from '../helpers/store.js';
import { ServiceUnderTest, eventually, paymentEvent, tempDbPath } from '../helpers/webhooks.js';

const CLIENT = 'client-restart';

describe('webhook outbox across a restart', () => {
  let db: ReturnType<typeof tempDbPath> | undefined;
  let service: ServiceUnderTest | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    await service?.close();
    db?.cleanup();
  });

  it('loses no delivery when the process stops in the middle of the retries', async () => {
    db = tempDbPath();
    // Slow enough redeliveries that the stop lands between attempts.
    const settings = { AFFORD_WEBHOOK_RETRY_BASE_MS: '60', AFFORD_WEBHOOK_RETRY_CAP_MS: '120' };
    receiver = await startReceiver((_req, i) => (i < 4 ? 503 : 200));
    service = await ServiceUnderTest.open(db.dbPath, { settings });
    await service.subscribe({ clientId: CLIENT, url: receiver.url, events: ['payment.scheduled.status_updated'] });
    await service.ingest([paymentEvent(CLIENT, 'cust-1', 'scheduled')]);
    await receiver.waitFor(2);

    await service.close();
    const before = receiver.requests.length;
    expect(before).toBeLessThan(5);
    service = undefined;
    // Nothing is sent while no process runs.
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.length).toBe(before);

    service = await ServiceUnderTest.open(db.dbPath, { settings });
    const log = new DeliveriesRepository(service.store);
    const delivered = await eventually(async () => {
      const [d] = await log.log();
      return d?.status === 'delivered' ? d : undefined;
    });
    expect(receiver.requests).toHaveLength(5);
    expect(delivered.attempts).toBe(5);
    expect(delivered.attemptLog.map((a) => a.status_code)).toEqual([503, 503, 503, 503, 200]);
    expect(new Set(receiver.requests.map((q) => q.headers['x-webhook-delivery-id'])).size).toBe(1);
    expect(await rows(service.store, "SELECT count(*)::INTEGER AS n FROM webhook_outbox WHERE status = 'pending'")).toEqual([{ n: 0 }]);
  });

  it('sends after the next start what was enqueued while no worker ran', async () => {
    db = tempDbPath();
    receiver = await startReceiver(() => 200);
    service = await ServiceUnderTest.open(db.dbPath);
    await service.subscribe({ clientId: CLIENT, url: receiver.url, events: ['payment.single.status_updated'] });
    // Stop the worker only: the pipeline still enqueues, as `afford ingest file` does without `afford serve`.
    await service.runtime.worker.stop();
    await service.ingest([paymentEvent(CLIENT, 'cust-2', 'single')]);
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.requests).toHaveLength(0);
    await service.close();

    service = await ServiceUnderTest.open(db.dbPath);
    await receiver.waitFor(1);
    expect(JSON.parse(receiver.requests[0]?.body.toString('utf8') ?? '{}')).toMatchObject({ data: { event: 'payment.success' } });
  });
});
