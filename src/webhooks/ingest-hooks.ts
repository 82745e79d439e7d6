import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../logger.js';
import { enqueueWebhook } from './outbox.js';
import { customersDeletedMessage, paymentMessage, type CustomerDeletion, type PaymentNotice } from './payloads.js';

/** What a committed ingest batch did that clients hear about. The ingest pipeline's BatchResult has this shape. */
export interface BatchEffects {
  deletedCustomers: readonly CustomerDeletion[];
  payments: readonly PaymentNotice[];
}

/**
 * The hooks every ingest pipeline is built with, described by shape so that
 * webhooks need not import the ingest layer (the pipeline's PipelineHooks has
 * this shape).
 */
export interface WebhookIngestHooks {
  webhooks: (conn: DuckDBConnection, result: BatchEffects) => Promise<void>;
  afterCommit: (result: BatchEffects) => void;
}

/**
 * Makes every ingest batch (Kafka, file, HTTP, `afford customers delete`)
 * enqueue its webhooks inside its own transaction: the customers.deleted
 * notice commits with the deletion, a payment webhook with the handled
 * event, so neither can be lost or sent twice. `wake` tells a delivery worker
 * in this process, after commit, that there is something to send.
 */
export function webhookIngestHooks(logger: Logger, wake: () => void = () => undefined): WebhookIngestHooks {
  const log = logger.child({ component: 'webhooks' });
  return {
    webhooks: async (conn, result) => {
      for (const deletion of result.deletedCustomers) {
        const queued = await enqueueWebhook(conn, customersDeletedMessage(deletion));
        log.info({ customerId: deletion.customerId, clientId: deletion.clientId, deliveries: queued.length }, 'customers.deleted webhook enqueued');
      }
      for (const payment of result.payments) {
        const message = paymentMessage(payment);
        const queued = await enqueueWebhook(conn, message);
        log.info(
          { customerId: payment.customerId, clientId: payment.clientId, paymentId: payment.payment.payment_id, event: message.event, deliveries: queued.length },
          'payment webhook enqueued',
        );
      }
    },
    afterCommit: (result) => {
      if (result.deletedCustomers.length > 0 || result.payments.length > 0) wake();
    },
  };
}
