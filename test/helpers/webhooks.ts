import { mkdtempSync, rmSync } from 'node:fs';
import { sleep } from './time.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { TokenService } from '../../src/api/auth/tokens.js';
import { buildServer } from '../../src/api/server.js';
import { loadConfig, type Config } from '../../src/config.js';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { Store } from '../../src/db/store.js';
import { hashSecret } from '../../src/domain/secrets.js';
import type { IngestPipeline } from '../../src/ingest/pipeline.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import type { BatchResult } from '../../src/ingest/types.js';
import { startDelivery, startTasks, type Delivery, type Tasks } from '../../src/app/runtime.js';
import type { CatchUpProbe } from '../../src/tasks/catch-up.js';
import { validateSubscription, type SubscriptionInput } from '../../src/webhooks/subscription-input.js';
import { SubscriptionsRepository, type Subscription } from '../../src/webhooks/subscriptions.repository.js';
import { silentLogger } from './store.js';

export const TOKEN_SECRET = 'afford-webhook-test-token-secret-0123456789';
/** Longer than 32 characters, as the interface asks. */
export const SIGNING_SECRET = 'whsec-0123456789abcdef0123456789abcdef';

/** Quick retries so that a test with 11 attempts runs in about a second. */
export const FAST_SETTINGS = {
  AFFORD_WEBHOOK_RETRY_BASE_MS: '10',
  AFFORD_WEBHOOK_RETRY_CAP_MS: '160',
  AFFORD_WEBHOOK_TIMEOUT_MS: '2000',
  AFFORD_REFRESH_TIMEOUT_MS: '2000',
};

/** The service's webhook and task parts, as startService composes them. */
export type TaskRuntime = Omit<Delivery, 'wake'> & Tasks & { stop: () => Promise<void> };

export interface ServiceOptions {
  /** Listen with the API (refresh, ingestion, JWKS routes). */
  api?: boolean;
  settings?: Partial<Record<string, string>>;
  catchUp?: CatchUpProbe;
}

/** The webhook and task parts of the service on a real DuckDB file, as startService wires them, optionally with the API listening. */
export class ServiceUnderTest {
  private constructor(
    readonly dbPath: string,
    readonly config: Config,
    readonly store: Store,
    readonly pipeline: IngestPipeline,
    readonly runtime: TaskRuntime,
    readonly app: FastifyInstance | undefined,
    readonly base: string,
  ) {}

  static async open(dbPath: string, options: ServiceOptions = {}): Promise<ServiceUnderTest> {
    const config = loadConfig({}, { AFFORD_DB: dbPath, AFFORD_TOKEN_SECRET: TOKEN_SECRET, ...FAST_SETTINGS, ...options.settings });
    const store = await Store.open(dbPath, silentLogger);
    const delivery = await startDelivery(store, config, silentLogger);
    const pipeline = buildPipeline(store, silentLogger, delivery.wake);
    const tasks = await startTasks({ store, pipeline, config, logger: silentLogger, wake: delivery.wake, catchUp: options.catchUp });
    const runtime: TaskRuntime = {
      keys: delivery.keys,
      worker: delivery.worker,
      ...tasks,
      stop: async () => {
        await tasks.refresh.stop();
        await delivery.worker.stop();
      },
    };
    let app: FastifyInstance | undefined;
    let base = '';
    if (options.api) {
      app = await buildServer({ store, config, logger: silentLogger, pipeline, refresh: runtime.refresh, ingestion: runtime.ingestion, webhookKeys: runtime.keys });
      base = await app.listen({ host: '127.0.0.1', port: 0 });
    }
    return new ServiceUnderTest(dbPath, config, store, pipeline, runtime, app, base);
  }

  async subscribe(input: Omit<SubscriptionInput, 'url'> & { url: string }): Promise<Subscription> {
    return new SubscriptionsRepository(this.store).add(validateSubscription(input));
  }

  /** Events as objects, one batch, the way a file or Kafka batch arrives. */
  ingest(events: readonly object[]): Promise<BatchResult> {
    return this.pipeline.ingest(events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file', sourceRef: 'test', lineNumber: i + 1 } })));
  }

  async call<T = unknown>(method: string, urlPath: string, init: { headers?: Record<string, string>; body?: unknown } = {}): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${urlPath}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  }

  /** Headers of an authenticated call for a client (and a customer). */
  async auth(clientId: string, customerId?: string): Promise<Record<string, string>> {
    // A token is honoured only for a client that exists, at its current token generation.
    const clients = new ClientsRepository(this.store);
    if (!(await clients.getClient(clientId))) await clients.insertClient(clientId, `test ${clientId}`, hashSecret(`${clientId}-secret`));
    const { access_token } = await new TokenService(TOKEN_SECRET).issue(clientId, 0);
    return { authorization: `Bearer ${access_token}`, 'x-client-id': clientId, ...(customerId ? { 'x-customer-id': customerId } : {}) };
  }

  /** Stops as the service does on SIGTERM: the API, then the tasks and the worker, then the store. */
  async close(): Promise<void> {
    await this.app?.close();
    await this.runtime.stop();
    await this.store.close();
  }
}

export function tempDbPath(): { dbPath: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-webhooks-'));
  return { dbPath: path.join(dir, 'afford.duckdb'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

export function transactionEvent(clientId: string, customerId: string, transactionId: string, opts: { amount?: string; dateTime?: string; occurredAt?: string } = {}) {
  return {
    event_id: nextId('ev-tx'),
    type: 'transaction.upserted',
    occurred_at: opts.occurredAt ?? new Date().toISOString(),
    client_id: clientId,
    customer_id: customerId,
    data: transactionData(transactionId, opts),
  };
}

export function transactionData(transactionId: string, opts: { amount?: string; dateTime?: string } = {}) {
  return {
    transaction_id: transactionId,
    account_id: 'acc-1',
    provider: 'Monzo',
    description: 'TESCO STORES',
    credit_debit_indicator: 'debit',
    amount: { value: opts.amount ?? '12.34', currency: 'GBP' },
    date_time: opts.dateTime ?? '2024-03-05T10:00:00Z',
    status: 'booked',
    enrichments: { categories: { l1: { slug: 'food_and_drink', confidence: '0.9' }, l2: { slug: 'groceries', confidence: '0.9' } } },
    tags: [],
  };
}

export function paymentEvent(clientId: string, customerId: string, kind: 'single' | 'standing_order' | 'scheduled', paymentId = nextId('pay')) {
  return {
    event_id: nextId('ev-pay'),
    type: 'payment.status_updated',
    occurred_at: new Date().toISOString(),
    client_id: clientId,
    customer_id: customerId,
    data: { payment_id: paymentId, service: 'domestic-single-payment', user_id: 'user-7', event: 'payment.success', kind },
  };
}

export function deletionEvent(clientId: string, customerId: string) {
  return { event_id: nextId('ev-del'), type: 'customer.deleted', occurred_at: new Date().toISOString(), client_id: clientId, customer_id: customerId, data: {} };
}

/** Polls until `fn` returns a value that is not undefined. */
export async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}
