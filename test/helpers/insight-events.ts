import { expect } from 'vitest';
import { insightsResponse } from '../../src/api/schemas/insights.schemas.js';
import type { InsightsData } from '../../src/reports/insights-model.js';
import { authHeaders, expectSchema, startApi, type ApiHarness } from './api.js';
import { item } from './transaction-events.js';

/** One transaction of a hand-built insights test: a GBP amount booked at 09:00 on `date` (YYYY-MM-DD). */
export interface InsightTransaction {
  customer: string;
  description: string;
  date: string;
  amount: string;
  direction: 'credit' | 'debit';
  l1: string;
  l2: string;
  /** acc-1 unless given. */
  account?: string;
  /** Both categories' confidence; none unless given. */
  confidence?: string;
  counterparty?: string;
  /** The account's running balance after it. */
  balance?: string;
}

/** A transaction event as built here, for a test to change or to give another customer. */
export type TransactionEventOf = {
  event_id: string;
  type: string;
  occurred_at: string;
  client_id: string;
  customer_id: string;
  data: Record<string, unknown>;
};

/**
 * The transaction.upserted events of one test file, all of `client` as of
 * `occurredAt`, their event and transaction ids numbered after `prefix`
 * (ev-PREFIX-1, tx-PREFIX-1, ...) in the order made.
 */
export function transactionEvents(prefix: string, client: string, occurredAt: string): (t: InsightTransaction) => TransactionEventOf {
  let n = 0;
  const category = (slug: string, confidence: string | undefined) => (confidence === undefined ? { slug } : { slug, confidence });
  return (t) => {
    n++;
    return {
      event_id: `ev-${prefix}-${n}`, type: 'transaction.upserted', occurred_at: occurredAt, client_id: client, customer_id: t.customer,
      data: {
        transaction_id: `tx-${prefix}-${n}`, account_id: t.account ?? 'acc-1', provider: 'Monzo', description: t.description, credit_debit_indicator: t.direction,
        amount: { value: t.amount, currency: 'GBP' }, date_time: `${t.date}T09:00:00Z`, status: 'booked',
        ...(t.counterparty === undefined ? {} : { counterparty: { name: t.counterparty } }),
        enrichments: { categories: { l1: category(t.l1, t.confidence), l2: category(t.l2, t.confidence) } }, tags: [],
        ...(t.balance === undefined ? {} : { running_balance: { value: t.balance, currency: 'GBP' } }),
      },
    };
  };
}

/** A customer's insights over `from` to `to` (YYYY-MM), of one account when given, answered 200 and checked against the response's schema. */
export async function insightsOf(api: ApiHarness, token: string, client: string, customer: string, from: string, to: string, accountId?: string): Promise<InsightsData> {
  const account = accountId === undefined ? '' : `&account_id=${encodeURIComponent(accountId)}`;
  const res = await api.call('GET', `/v1/affordability/insights?month_from=${from}&month_to=${to}${account}`, { headers: authHeaders(token, client, customer) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return expectSchema(insightsResponse, res.body).data as InsightsData;
}

/** The API with a client `client`, its token, and `events` ingested, none of them a dead letter. */
export async function startApiWith(client: string, events: readonly Record<string, unknown>[]): Promise<{ api: ApiHarness; token: string }> {
  const api = await startApi();
  const token = (await api.token(await api.createClient(client))).access_token;
  const result = await api.pipeline.ingest(events.map((e) => item(e)));
  expect(result.deadLetters).toEqual([]);
  return { api, token };
}
