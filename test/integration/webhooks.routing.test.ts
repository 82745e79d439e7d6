import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveriesRepository } from '../../src/webhooks/deliveries.repository.js';
import { SubscriptionsRepository } from '../../src/webhooks/subscriptions.repository.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { rows } from '../helpers/store.js';
import { sleep } from '../helpers/time.js';
import { ServiceUnderTest, eventually, paymentEvent, tempDbPath } from '../helpers/webhooks.js';

const ALL_PAYMENTS = ['payment.single.status_updated', 'payment.standing_order.status_updated', 'payment.scheduled.status_updated'];

describe('webhook routing', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const r = await startReceiver(() => 200);
    receivers.push(r);
    return r;
  };

  beforeEach(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath);
  });
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
    await service.close();
    db.cleanup();
  });

  /** Waits until the outbox has nothing pending, then a little longer so that a wrong send would have arrived. */
  const settle = async () => {
    await eventually(async () => {
      const [row] = await rows<{ n: number }>(service.store, "SELECT count(*)::INTEGER AS n FROM webhook_outbox WHERE status = 'pending'");
      return row?.n === 0 ? true : undefined;
    });
    await sleep(100);
  };

  it("sends an event only to active subscriptions of the customer's own client that chose it", async () => {
    const [chosen, second, deactivated, otherClient, otherEvent] = [await receiver(), await receiver(), await receiver(), await receiver(), await receiver()];
    await service.subscribe({ clientId: 'client-a', url: chosen.url, events: ['payment.single.status_updated'] });
    await service.subscribe({ clientId: 'client-a', url: second.url, events: ALL_PAYMENTS });
    const off = await service.subscribe({ clientId: 'client-a', url: deactivated.url, events: ALL_PAYMENTS });
    await service.subscribe({ clientId: 'client-b', url: otherClient.url, events: ALL_PAYMENTS });
    await service.subscribe({ clientId: 'client-a', url: otherEvent.url, events: ['customers.deleted', 'payment.scheduled.status_updated'] });
    expect(await new SubscriptionsRepository(service.store).setActive(off.subscriptionId, false)).toBe(true);

    await service.ingest([paymentEvent('client-a', 'cust-a1', 'single', 'pay-1')]);
    await settle();

    expect(chosen.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
    expect(deactivated.requests).toHaveLength(0);
    expect(otherClient.requests).toHaveLength(0);
    expect(otherEvent.requests).toHaveLength(0);
    expect(JSON.parse(chosen.requests[0]?.body.toString('utf8') ?? '')).toEqual({
      data: { payment_id: 'pay-1', service: 'domestic-single-payment', user_id: 'user-7', event: 'payment.success' },
    });
    expect(chosen.requests[0]?.headers['x-webhook-event']).toBe('payment.single.status_updated');

    // Activated again, it receives what comes next.
    await new SubscriptionsRepository(service.store).setActive(off.subscriptionId, true);
    await service.ingest([paymentEvent('client-a', 'cust-a1', 'standing_order', 'pay-2')]);
    await settle();
    expect(deactivated.requests).toHaveLength(1);
    expect(chosen.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(2);
  });

  it('relays each payment kind as its own webhook', async () => {
    const byKind = { single: await receiver(), standing_order: await receiver(), scheduled: await receiver() };
    for (const [kind, r] of Object.entries(byKind)) {
      await service.subscribe({ clientId: 'client-p', url: r.url, events: [`payment.${kind}.status_updated`] });
    }
    await service.ingest([
      paymentEvent('client-p', 'cust-p', 'single', 'p-single'),
      paymentEvent('client-p', 'cust-p', 'standing_order', 'p-so'),
      paymentEvent('client-p', 'cust-p', 'scheduled', 'p-sched'),
    ]);
    await settle();
    const ids = (r: Receiver) => r.requests.map((q) => (JSON.parse(q.body.toString('utf8')) as { data: { payment_id: string } }).data.payment_id);
    expect(ids(byKind.single)).toEqual(['p-single']);
    expect(ids(byKind.standing_order)).toEqual(['p-so']);
    expect(ids(byKind.scheduled)).toEqual(['p-sched']);
  });

  it('sends a replayed payment event once', async () => {
    const r = await receiver();
    await service.subscribe({ clientId: 'client-p', url: r.url, events: ALL_PAYMENTS });
    const event = paymentEvent('client-p', 'cust-p', 'single');
    await service.ingest([event]);
    await service.ingest([event, event]);
    await settle();
    expect(r.requests).toHaveLength(1);
  });

  it('cancels pending redeliveries of a subscription deactivated meanwhile', async () => {
    let calls = 0;
    const r = await startReceiver(() => (++calls === 1 ? 503 : 200));
    receivers.push(r);
    const sub = await service.subscribe({ clientId: 'client-c', url: r.url, events: ALL_PAYMENTS });
    await service.runtime.worker.stop(); // hold the delivery in the outbox
    await service.ingest([paymentEvent('client-c', 'cust-c', 'single')]);
    await new SubscriptionsRepository(service.store).setActive(sub.subscriptionId, false);
    await service.close();
    service = await ServiceUnderTest.open(db.dbPath);
    await settle();
    expect(r.requests).toHaveLength(0);
    const [d] = await new DeliveriesRepository(service.store).log();
    expect(d).toMatchObject({ status: 'cancelled', attempts: 0 });
  });
});
