import type { DuckDBConnection } from '@duckdb/node-api';
import { queryFile } from '../db/script.js';
import { dbTime } from '../domain/timestamps.js';
import type { WebhookMessage } from './payloads.js';


export interface Enqueued {
  delivery_id: string;
  subscription_id: string;
}

/**
 * Puts one event in the outbox, inside the caller's transaction, so it is
 * there exactly when the change it reports is: a rolled-back batch sends
 * nothing, a committed one is delivered even across a restart. Routing is
 * decided here: the active subscriptions of the customer's own client that
 * chose the event. The body text is fixed now, so every redelivery sends the
 * same bytes.
 */
export async function enqueueWebhook(conn: DuckDBConnection, message: WebhookMessage, now: Date = new Date()): Promise<Enqueued[]> {
  return queryFile<Enqueued>(conn, 'queries/webhooks/enqueue', {
    event_key: message.eventKey,
    event: message.event,
    client_id: message.clientId,
    customer_id: message.customerId,
    body: JSON.stringify(message.body),
    now: dbTime(now),
  }, { delivery_id: 'text', subscription_id: 'text' });
}
