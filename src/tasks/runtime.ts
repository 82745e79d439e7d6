import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Logger } from '../logger.js';
import { DeliveryWorker } from '../webhooks/delivery.js';
import { attachWebhooks } from '../webhooks/ingest-hooks.js';
import { WebhookSigningKeys } from '../webhooks/signing-keys.js';
import type { CatchUpProbe } from './catch-up.js';
import { IngestionService } from './ingestion.js';
import { RefreshService } from './refresh.js';

export interface TaskRuntime {
  keys: WebhookSigningKeys;
  worker: DeliveryWorker;
  refresh: RefreshService;
  ingestion: IngestionService;
  stop: () => Promise<void>;
}

export interface TaskRuntimeDeps {
  store: Store;
  pipeline: IngestPipeline;
  config: Config;
  logger: Logger;
  /** The Kafka consumer's, when there is one; otherwise the store has always caught up. */
  catchUp?: CatchUpProbe;
}

/**
 * The service's webhook and task parts, wired: the pipeline's batches enqueue
 * their webhooks, the delivery worker sends the outbox, and refreshes left
 * pending by the last run are resumed. Start it before any source feeds the
 * pipeline; stop it after the sources and the API, before the store.
 */
export async function startTaskRuntime(deps: TaskRuntimeDeps): Promise<TaskRuntime> {
  const { store, pipeline, config, logger } = deps;
  const keys = new WebhookSigningKeys(store);
  const worker = await DeliveryWorker.start({
    store,
    logger,
    keys,
    settings: {
      baseMs: config.AFFORD_WEBHOOK_RETRY_BASE_MS,
      capMs: config.AFFORD_WEBHOOK_RETRY_CAP_MS,
      timeoutMs: config.AFFORD_WEBHOOK_TIMEOUT_MS,
    },
  });
  const wake = () => worker.wake();
  attachWebhooks(pipeline, logger, wake);
  const refresh = new RefreshService({
    store,
    logger,
    settings: { timeoutMs: config.AFFORD_REFRESH_TIMEOUT_MS },
    catchUp: deps.catchUp,
    onEnqueued: wake,
  });
  await refresh.resumePending();
  const ingestion = new IngestionService({ pipeline, logger, onEnqueued: wake });
  return {
    keys,
    worker,
    refresh,
    ingestion,
    stop: async () => {
      await refresh.stop();
      await worker.stop();
    },
  };
}
