/**
 * The webhook events a subscription can choose. The reference API names only
 * `payment.success` (a payment payload's `event` value) and
 * `first_party_ingester.ingest.succeeded`; the others follow the same
 * dotted style (docs/interface.md, Webhooks). The connection-completed webhook is not offered: there is no
 * connection service here to complete a connect task.
 */
export const WEBHOOK_EVENTS = {
  'open_banking.refresh.completed': 'a refresh task completed or failed (RefreshCompleted)',
  'customers.deleted': 'a customer and all their data have been removed',
  'payment.single.status_updated': 'a single payment succeeded or failed',
  'payment.standing_order.status_updated': 'a standing order payment succeeded or failed',
  'payment.scheduled.status_updated': 'a scheduled payment succeeded or failed',
  'first_party_ingester.ingest.succeeded': 'a first-party transaction ingestion task finished',
} as const;

export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;

export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEvent[];

export function isWebhookEvent(name: string): name is WebhookEvent {
  return Object.hasOwn(WEBHOOK_EVENTS, name);
}

export type PaymentKind = 'single' | 'standing_order' | 'scheduled';

export function paymentWebhookEvent(kind: PaymentKind): WebhookEvent {
  return `payment.${kind}.status_updated`;
}

/** For `--help` and the docs: one line per event. */
export function describeWebhookEvents(indent = '  '): string {
  const width = Math.max(...WEBHOOK_EVENT_NAMES.map((n) => n.length));
  return WEBHOOK_EVENT_NAMES.map((n) => `${indent}${n.padEnd(width)}  ${WEBHOOK_EVENTS[n]}`).join('\n');
}
