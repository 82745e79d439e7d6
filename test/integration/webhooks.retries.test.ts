import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveriesRepository } from '../../src/webhooks/deliveries.repository.js';
import { MAX_REDELIVERIES } from '../../src/webhooks/retry-policy.js';
import { refusedUrl, startReceiver, type Answer, type Receiver } from '../helpers/receiver.js';
import { sleep } from '../helpers/time.js';
import { ServiceUnderTest, eventually, paymentEvent, tempDbPath } from '../helpers/webhooks.js';

const CLIENT = 'client-r';
const CUSTOMER = 'cust-r';
const BASE_MS = 10;
const CAP_MS = 160;

describe('webhook delivery retries', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  let receiver: Receiver | undefined;

  beforeEach(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath);
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    await service.close();
    db.cleanup();
  });

  /** Subscribes `url`, sends one payment webhook, and waits until its delivery stops being pending. */
  async function deliverOnce(url: string) {
    await service.subscribe({ clientId: CLIENT, url, events: ['payment.single.status_updated'] });
    await service.ingest([paymentEvent(CLIENT, CUSTOMER, 'single')]);
    const log = new DeliveriesRepository(service.store);
    return eventually(async () => {
      const [d] = await log.log();
      return d && d.status !== 'pending' ? d : undefined;
    });
  }

  const answering = async (answer: (i: number) => Answer) => {
    receiver = await startReceiver((_req, i) => answer(i));
    return receiver;
  };

  it('a receiver answering 503 nine times and then 200 gets exactly 10 attempts', async () => {
    const r = await answering((i) => (i < 9 ? 503 : 200));
    const d = await deliverOnce(r.url);
    expect(d.status).toBe('delivered');
    expect(d.attempts).toBe(10);
    await sleep(200);
    expect(r.requests).toHaveLength(10);
    expect(d.attemptLog.map((a) => a.status_code)).toEqual([...Array(9).fill(503), 200]);
    expect(d.attemptLog.map((a) => a.outcome)).toEqual([...Array(9).fill('retry'), 'delivered']);
    // Every attempt is recorded with its latency and, while retrying, its next attempt.
    for (const a of d.attemptLog) expect(a.latency_ms).toBeGreaterThanOrEqual(0);
    expect(d.attemptLog.slice(0, 9).every((a) => a.next_attempt_at !== null)).toBe(true);
    expect(d.attemptLog[9]?.next_attempt_at).toBeNull();
    // The same delivery each time: same id, same bytes, a rising attempt number.
    expect(new Set(r.requests.map((q) => q.headers['x-webhook-delivery-id'])).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.body.toString('hex'))).size).toBe(1);
    expect(r.requests.map((q) => q.headers['x-webhook-attempt'])).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 1)));
  });

  it('a receiver answering 503 forever gets exactly 11 attempts (one delivery, 10 redeliveries) with growing gaps', async () => {
    const r = await answering(() => 503);
    const d = await deliverOnce(r.url);
    expect(d.status).toBe('failed');
    expect(d.attempts).toBe(1 + MAX_REDELIVERIES);
    expect(d.last_status_code).toBe(503);
    await sleep(300);
    expect(r.requests).toHaveLength(11);
    // The delays the worker chose, from the log: exponential steps with jitter in the upper half, so they never shrink until the cap.
    const step = (n: number) => Math.min(CAP_MS, BASE_MS * 2 ** (n - 1));
    const delays = d.attemptLog.slice(0, 10).map((a) => Date.parse(a.next_attempt_at ?? '') - Date.parse(a.started_at) - a.latency_ms);
    delays.forEach((delay, i) => {
      expect(delay, `delay before redelivery ${i + 1}`).toBeGreaterThanOrEqual(step(i + 1) / 2 - 3);
      expect(delay, `delay before redelivery ${i + 1}`).toBeLessThanOrEqual(step(i + 1) + 3);
    });
    for (let i = 1; i < 5; i++) expect(delays[i], `delay ${i + 1} vs ${i}`).toBeGreaterThanOrEqual((delays[i - 1] ?? 0) - 3);
    // And the receiver saw gaps at least that long.
    const gaps = r.requests.slice(1).map((q, i) => q.at - (r.requests[i]?.at ?? 0));
    gaps.forEach((gap, i) => expect(gap, `gap before redelivery ${i + 1}`).toBeGreaterThanOrEqual(step(i + 1) / 2 - 2));
    expect(Math.min(...gaps.slice(-3))).toBeGreaterThanOrEqual(CAP_MS / 2 - 2);
  });

  for (const status of [400, 404]) {
    it(`a receiver answering ${status} gets exactly 1 attempt`, async () => {
      const r = await answering(() => status);
      const d = await deliverOnce(r.url);
      expect(d.status).toBe('failed');
      expect(d.attempts).toBe(1);
      expect(d.attemptLog).toEqual([expect.objectContaining({ attempt: 1, status_code: status, outcome: 'failed', next_attempt_at: null })]);
      await sleep(200);
      expect(r.requests).toHaveLength(1);
    });
  }

  it('retries a timeout', async () => {
    await service.close();
    service = await ServiceUnderTest.open(db.dbPath, { settings: { AFFORD_WEBHOOK_TIMEOUT_MS: '300' } });
    const r = await answering((i) => (i === 0 ? { status: 200, delayMs: 1500 } : 200));
    const d = await deliverOnce(r.url);
    expect(d.status).toBe('delivered');
    expect(d.attemptLog[0]).toMatchObject({ status_code: null, error: 'timeout', outcome: 'retry' });
    expect(d.attemptLog[0]?.latency_ms).toBeGreaterThanOrEqual(290);
    expect(d.attemptLog.at(-1)).toMatchObject({ status_code: 200, outcome: 'delivered' });
  });

  it('retries a refused connection', async () => {
    const d = await deliverOnce(await refusedUrl());
    expect(d.status).toBe('failed');
    expect(d.attempts).toBe(11);
    expect(d.attemptLog.every((a) => a.status_code === null && a.error === 'connection refused')).toBe(true);
    expect(d.attemptLog.slice(0, 10).every((a) => a.outcome === 'retry')).toBe(true);
  });
});
