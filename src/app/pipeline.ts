import { announceDataChange } from '../db/data-changes.js';
import type { Store } from '../db/store.js';
import { IngestPipeline } from '../ingest/pipeline.js';
import type { Logger } from '../logger.js';
import { webhookIngestHooks } from '../webhooks/ingest-hooks.js';

/**
 * The one place an ingest pipeline is built, for the service and for every
 * command that writes events (a file, the Kafka consumer on its own, a
 * customer deletion): each comes with the webhook hooks, so that no source
 * drops its webhooks. `wake` tells the delivery worker of this process that
 * there is something to send; without one (a command run on its own), the
 * outbox fills and `afford serve` sends it. After each commit, the customers
 * the batch touched or deleted are announced, so that the API's read cache
 * drops their answers before the batch is acknowledged.
 */
export function buildPipeline(store: Store, logger: Logger, wake?: () => void): IngestPipeline {
  const webhooks = webhookIngestHooks(logger, wake);
  return new IngestPipeline(store, logger.child({ component: 'ingest' }), {
    webhooks: webhooks.webhooks,
    afterCommit: (result) => {
      const customers = [...result.touchedCustomers, ...result.deletedCustomers];
      if (customers.length > 0) announceDataChange(store, { kind: 'customers', customers });
      webhooks.afterCommit(result);
    },
  });
}
