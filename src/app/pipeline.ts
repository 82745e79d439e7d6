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
 * outbox fills and `afford serve` sends it.
 */
export function buildPipeline(store: Store, logger: Logger, wake?: () => void): IngestPipeline {
  return new IngestPipeline(store, logger.child({ component: 'ingest' }), webhookIngestHooks(logger, wake));
}
