import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Logger } from '../logger.js';
import type { CatchUpProbe } from '../tasks/catch-up.js';
import { IngestionService } from '../tasks/ingestion.js';
import { RefreshService } from '../tasks/refresh.js';
import { DeliveryWorker } from '../webhooks/delivery.js';
import { WebhookSigningKeys } from '../webhooks/signing-keys.js';

export interface Delivery {
  keys: WebhookSigningKeys;
  worker: DeliveryWorker;
  /** Tells the worker, after a commit, that the outbox has something to send. */
  wake: () => void;
}

/**
 * The webhook delivery worker, started before the pipeline is built: the
 * pipeline's hooks wake it, so it must exist first.
 */
export async function startDelivery(store: Store, config: Config, logger: Logger): Promise<Delivery> {
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
  return { keys, worker, wake: () => worker.wake() };
}

export interface Tasks {
  refresh: RefreshService;
  ingestion: IngestionService;
}

export interface TasksDeps {
  store: Store;
  pipeline: IngestPipeline;
  config: Config;
  logger: Logger;
  wake: () => void;
  /** The Kafka consumer's, when there is one; otherwise the store has always caught up. */
  catchUp?: CatchUpProbe;
}

/** Refresh and ingestion tasks; refreshes left pending by the last run are resumed. */
export async function startTasks(deps: TasksDeps): Promise<Tasks> {
  const { store, pipeline, config, logger, wake } = deps;
  const refresh = new RefreshService({
    store,
    logger,
    settings: { timeoutMs: config.AFFORD_REFRESH_TIMEOUT_MS },
    catchUp: deps.catchUp,
    onEnqueued: wake,
  });
  await refresh.resumePending();
  const ingestion = new IngestionService({ pipeline, logger, onEnqueued: wake });
  return { refresh, ingestion };
}
