import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { transactionsResponse } from '../../src/api/schemas/transactions.schemas.js';
import { buildServer } from '../../src/api/server.js';
import { ClientsService, type IssuedClient } from '../../src/clients/clients.service.js';
import { loadConfig } from '../../src/config.js';
import type { Clock } from '../../src/domain/clock.js';
import { sumAmounts } from '../../src/domain/money.js';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { IngestMetrics } from '../../src/ingest/metrics.js';
import { createLogger } from '../../src/logger.js';
import { fixturePath, tempStore } from './store.js';

export const TEST_TOKEN_SECRET = 'afford-test-token-secret-0123456789-abcdef';

/** The interface's generic bodies, word for word. */
export const GENERIC_401 = { operation_id: 'unknown', code_id: 'unknown', message: 'Unauthorised request', errors: {} };
export const GENERIC_404 = { operation_id: 'unknown', code_id: 'unknown', message: 'Route or resource not found', errors: {} };
export const GENERIC_405 = { operation_id: 'unknown', code_id: 'unknown', message: 'Method not allowed', errors: {} };
export const GENERIC_500 = { message: 'An error occurred while processing your request' };
export const GENERIC_503 = { message: 'Service unavailable' };

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface ApiHarness {
  base: string;
  app: FastifyInstance;
  store: Awaited<ReturnType<typeof tempStore>>['store'];
  pipeline: Awaited<ReturnType<typeof tempStore>>['pipeline'];
  /** Every log line the server wrote, as text. */
  logs: string[];
  createClient: (clientId: string, name?: string) => Promise<IssuedClient>;
  /** POST /v1/oauth/token with client credentials; returns the token data. */
  token: (client: IssuedClient) => Promise<{ access_token: string; refresh_token: string }>;
  call: <T = unknown>(method: string, path: string, init?: { headers?: Record<string, string>; body?: unknown }) => Promise<ApiResponse<T>>;
  close: () => Promise<void>;
}

export interface HarnessOptions {
  fixtures?: string[];
  isReady?: () => boolean;
  metrics?: IngestMetrics;
  /** Runs on the built app before it listens (e.g. to add a route that fails on purpose). */
  beforeListen?: (app: FastifyInstance) => void;
  /** What "now" is for the server's default month ranges; pin it so that a test cannot depend on the day it runs. */
  clock?: Clock;
  /** Settings beside the test's own (environment variable names, as in the README). */
  settings?: Record<string, string>;
}

/** A real DuckDB file, the fixtures ingested, and the API listening on a free port. */
export async function startApi(opts: HarnessOptions = {}): Promise<ApiHarness> {
  const ctx = await tempStore();
  for (const f of opts.fixtures ?? []) await ingestFile(ctx.pipeline, fixturePath(f), { batchRows: 1000 });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_TOKEN_SECRET: TEST_TOKEN_SECRET, ...opts.settings });
  const app = await buildServer({ store: ctx.store, config, logger, isReady: opts.isReady, metrics: opts.metrics, clock: opts.clock });
  opts.beforeListen?.(app);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const clients = new ClientsService(new ClientsRepository(ctx.store));

  const call = async <T>(method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (typeof init.body === 'string') body = init.body;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${base}${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T, headers: res.headers };
  };

  return {
    base,
    app,
    store: ctx.store,
    pipeline: ctx.pipeline,
    logs,
    createClient: (clientId, name = `test ${clientId}`) => clients.create(name, clientId),
    token: async (client) => {
      const res = await call<{ data: { access_token: string; refresh_token: string } }>('POST', '/v1/oauth/token', {
        headers: {
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
          'x-client-id': client.client_id,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      expect(res.status).toBe(200);
      return res.body.data;
    },
    call,
    close: async () => {
      await app.close();
      await ctx.cleanup();
    },
  };
}

/** Headers of a client call, and of a customer call when a customer is given. */
export function authHeaders(token: string, clientId: string, customerId?: string, secret?: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'x-client-id': clientId,
    ...(customerId !== undefined ? { 'x-customer-id': customerId } : {}),
    ...(secret !== undefined ? { 'x-customer-secret': secret } : {}),
  };
}

/**
 * An API with `opts`, started before the tests of the enclosing block and
 * closed after them, and the headers of a new client's calls for one customer.
 */
export function useCustomerApi(opts: HarnessOptions, clientId = 'client-a', customerId = 'cust-1'): { readonly api: ApiHarness; readonly headers: Record<string, string> } {
  let api: ApiHarness | undefined;
  let headers: Record<string, string> = {};
  beforeAll(async () => {
    api = await startApi(opts);
    headers = await newClientHeaders(api, clientId, customerId);
  });
  afterAll(async () => api?.close());
  return {
    get api(): ApiHarness {
      if (!api) throw new Error('the API has not started yet');
      return api;
    },
    get headers() {
      return headers;
    },
  };
}

/** The interface's body for a request that failed validation: `errors` maps each field to its problem. */
export function validationBody(operationId: string, errors: Record<string, string>) {
  return { operation_id: operationId, code_id: 'failed_validation', message: expect.any(String), metadata: {}, errors };
}

/** A new client's token, as the headers of its calls (as `customerId`'s when given). */
export async function newClientHeaders(api: ApiHarness, clientId: string, customerId?: string): Promise<Record<string, string>> {
  return authHeaders((await api.token(await api.createClient(clientId))).access_token, clientId, customerId);
}

/** Checks the body against the endpoint's zod schema (operation_id included) and returns it typed. */
/** Follows a transactions link through every page; returns the amounts' sum and their count. */
export async function followLink(api: ApiHarness, link: string, headers: Record<string, string>, pageSize?: number): Promise<{ total: string; count: number }> {
  const base = pageSize ? `${link}&page_size=${pageSize}` : link;
  const amounts: string[] = [];
  let next: string | undefined = base;
  while (next) {
    const res: ApiResponse = await api.call('GET', next, { headers });
    expect(res.status, next).toBe(200);
    const body: z.output<typeof transactionsResponse> = expectSchema(transactionsResponse, res.body);
    amounts.push(...body.data.map((t) => t.amount.value));
    next = body.metadata.next_page_token ? `${base}&page_token=${body.metadata.next_page_token}` : undefined;
  }
  return { total: sumAmounts(amounts), count: amounts.length };
}

export function expectSchema<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`response does not match its schema: ${JSON.stringify(parsed.error.issues.slice(0, 5))}`);
  return parsed.data;
}
