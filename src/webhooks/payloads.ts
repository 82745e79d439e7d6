import type { PaymentData } from '../domain/events.js';
import { paymentWebhookEvent, type WebhookEvent } from './events.js';

/** One event to send: its name, who it concerns, and the body (docs/interface.md: every payload is under `data`). */
export interface WebhookMessage {
  event: WebhookEvent;
  /** What caused it (an event_id or a task_id), so that a replay enqueues nothing twice. */
  eventKey: string;
  clientId: string;
  customerId: string | null;
  body: { data: Record<string, string> };
}

const flag = (value: boolean): 'true' | 'false' => (value ? 'true' : 'false');

export interface RefreshOutcome {
  taskId: string;
  clientId: string;
  customerId: string;
  provider: string;
  status: 'Completed' | 'Failed';
  /** `success`, or the code_id of the failure. */
  result: string;
  hasNewTransactions: boolean;
  reconnectRequired: boolean;
}

/** The reference API's open banking task payload, refresh variant: the flags are the strings `true`/`false`. */
export function refreshCompletedMessage(r: RefreshOutcome): WebhookMessage {
  return {
    event: 'open_banking.refresh.completed',
    eventKey: `task:${r.taskId}`,
    clientId: r.clientId,
    customerId: r.customerId,
    body: {
      data: {
        task_id: r.taskId,
        task_type: 'refresh',
        customer_id: r.customerId,
        provider: r.provider,
        status: r.status,
        result: r.result,
        has_new_transactions: flag(r.hasNewTransactions),
        reconnect_required: flag(r.reconnectRequired),
      },
    },
  };
}

export interface CustomerDeletion {
  clientId: string;
  customerId: string;
  eventId: string;
  occurredAt: string;
}

/** The interface does not show this payload; it names the customer and when the deletion happened, like the payment payload names its event. */
export function customersDeletedMessage(d: CustomerDeletion): WebhookMessage {
  return {
    event: 'customers.deleted',
    eventKey: `event:${d.eventId}`,
    clientId: d.clientId,
    customerId: d.customerId,
    body: { data: { event: 'customers.deleted', customer_id: d.customerId, deleted_at: d.occurredAt } },
  };
}

export interface PaymentNotice {
  clientId: string;
  customerId: string;
  eventId: string;
  payment: PaymentData;
}

/** The reference API's payment payload; `kind` chooses the webhook and is not repeated in the body. */
export function paymentMessage(p: PaymentNotice): WebhookMessage {
  return {
    event: paymentWebhookEvent(p.payment.kind),
    eventKey: `event:${p.eventId}`,
    clientId: p.clientId,
    customerId: p.customerId,
    body: {
      data: { payment_id: p.payment.payment_id, service: p.payment.service, user_id: p.payment.user_id, event: p.payment.event },
    },
  };
}

export const INGEST_OPERATION_ID = 'v2_ingest_transactions_post';

/** The reference API's ingestion payload. */
export function ingestionSucceededMessage(taskId: string, clientId: string): WebhookMessage {
  return {
    event: 'first_party_ingester.ingest.succeeded',
    eventKey: `task:${taskId}`,
    clientId,
    customerId: null,
    body: { data: { event: 'first_party_ingester.ingest.succeeded', operation_id: INGEST_OPERATION_ID, task_id: taskId } },
  };
}
