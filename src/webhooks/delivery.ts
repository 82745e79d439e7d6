import type { Store } from '../db/store.js';
import type { Logger } from '../logger.js';
import { DeliveriesRepository, type DueDelivery } from './deliveries.repository.js';
import { sendWebhook } from './http-sender.js';
import { backoffMs, judgeAttempt, type RetrySettings } from './retry-policy.js';
import { signatureHeaders } from './signing.js';
import { WebhookSigningKeys } from './signing-keys.js';
import { headersJson } from './subscriptions.repository.js';

export interface DeliverySettings extends RetrySettings {
  /** Longest wait for a receiver's response; a timeout is retryable. */
  timeoutMs: number;
  /** Longest sleep between looks at the outbox. Enqueuers in this process call wake(), so this is only a safety net. */
  pollMs?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
}

export interface DeliveryWorkerDeps {
  store: Store;
  logger: Logger;
  settings: DeliverySettings;
  keys?: WebhookSigningKeys;
  /** Jitter source; tests may pin it. */
  random?: () => number;
}

const USER_AGENT = 'afford-webhooks/1';

/**
 * Sends what the outbox holds. The outbox in DuckDB is the only queue: the
 * worker keeps nothing but a timer and the ids in flight, so a restart picks
 * up every pending delivery where it was. A delivery cut off by a crash
 * before its attempt was recorded is sent again (at least once); receivers
 * deduplicate on X-Webhook-Delivery-ID.
 */
export class DeliveryWorker {
  private readonly repo: DeliveriesRepository;
  private readonly keys: WebhookSigningKeys;
  private readonly log: Logger;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private rerun = false;
  private stopped = false;

  private constructor(private readonly deps: DeliveryWorkerDeps) {
    this.repo = new DeliveriesRepository(deps.store);
    this.keys = deps.keys ?? new WebhookSigningKeys(deps.store);
    this.log = deps.logger.child({ component: 'webhooks' });
  }

  static async start(deps: DeliveryWorkerDeps): Promise<DeliveryWorker> {
    const worker = new DeliveryWorker(deps);
    // Creating the key first means the JWKS is never empty once the service is up.
    await worker.keys.signingKey();
    worker.wake();
    return worker;
  }

  /** Look at the outbox now: something was enqueued, or a slot freed up. */
  wake(): void {
    if (this.stopped) return;
    // A scan in progress may have read the outbox before the change: make it look again when done.
    if (this.pumping) this.rerun = true;
    else this.schedule(0);
  }

  /** Stops taking work and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pumping;
    await Promise.all(this.inFlight.values());
  }

  private get concurrency(): number {
    return this.deps.settings.concurrency ?? 8;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pump(), Math.max(0, delayMs));
  }

  private async pump(): Promise<void> {
    if (this.stopped) return;
    if (this.pumping) {
      this.rerun = true;
      return;
    }
    this.pumping = this.dispatchAndPlan().catch((err: unknown) => {
      this.log.error({ err }, 'webhook outbox scan failed; trying again later');
      if (!this.stopped) this.schedule(this.deps.settings.pollMs ?? 1000);
    });
    await this.pumping;
    this.pumping = undefined;
    if (this.rerun) {
      this.rerun = false;
      this.wake();
    }
  }

  private async dispatchAndPlan(): Promise<void> {
    const free = this.concurrency - this.inFlight.size;
    if (free > 0) {
      for (const delivery of await this.repo.due(new Date(), free, [...this.inFlight.keys()])) {
        if (this.stopped) return;
        const done = this.deliver(delivery)
          .catch((err: unknown) => this.log.error({ err, delivery_id: delivery.delivery_id }, 'webhook attempt could not be recorded'))
          .finally(() => {
            this.inFlight.delete(delivery.delivery_id);
            this.wake();
          });
        this.inFlight.set(delivery.delivery_id, done);
      }
    }
    if (this.stopped || this.inFlight.size >= this.concurrency) return; // a finishing delivery wakes the worker
    const next = await this.repo.nextDue([...this.inFlight.keys()]);
    const pollMs = this.deps.settings.pollMs ?? 1000;
    if (!this.stopped) this.schedule(next === undefined ? pollMs : Math.min(pollMs, next.getTime() - Date.now()));
  }

  private async deliver(d: DueDelivery): Promise<void> {
    const log = this.log.child({
      delivery_id: d.delivery_id,
      event: d.event,
      subscription_id: d.subscription_id,
      client_id: d.client_id,
      customer_id: d.customer_id ?? undefined,
    });
    if (!d.active) {
      await this.repo.cancel(d.delivery_id);
      log.info('webhook cancelled: its subscription was deactivated');
      return;
    }
    const attempt = d.attempts + 1;
    const body = Buffer.from(d.body, 'utf8');
    const headers: Record<string, string> = {
      ...headersJson.parse(JSON.parse(d.headers)),
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'X-Webhook-Event': d.event,
      'X-Webhook-Delivery-ID': d.delivery_id,
      'X-Webhook-Attempt': String(attempt),
      ...(await signatureHeaders(await this.keys.signingKey(), body, d.secret)),
    };
    const startedAt = new Date();
    const sent = await sendWebhook({ url: d.url, headers, body, timeoutMs: this.deps.settings.timeoutMs });
    const outcome = judgeAttempt(sent.statusCode, attempt);
    const nextAttemptAt = outcome === 'retry' ? new Date(Date.now() + backoffMs(attempt, this.deps.settings, this.deps.random)) : null;
    await this.repo.record({
      deliveryId: d.delivery_id,
      attempt,
      startedAt,
      statusCode: sent.statusCode,
      error: sent.error,
      latencyMs: sent.latencyMs,
      outcome,
      nextAttemptAt,
    });
    const entry = { attempt, status_code: sent.statusCode, error: sent.error ?? undefined, latency_ms: sent.latencyMs, outcome, next_attempt_at: nextAttemptAt };
    if (outcome === 'failed') log.warn(entry, 'webhook delivery gave up');
    else log.info(entry, outcome === 'delivered' ? 'webhook delivered' : 'webhook attempt failed; will redeliver');
  }
}
