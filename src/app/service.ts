import type { FastifyInstance } from 'fastify';
import { JOBS } from '../../jobs/registry.js';
import { recordInterruptedRuns, startScheduler } from '../../jobs/scheduler.js';
import { buildServer } from '../api/server.js';
import { storeOptions, type Config } from '../config.js';
import { Store } from '../db/store.js';
import { foreignCustomers } from '../ingest/customer-shard.js';
import { KafkaIngest } from '../ingest/kafka-ingest.js';
import { kafkaIngestSettingsFromConfig } from '../ingest/kafka-settings.js';
import { IngestMetrics } from '../ingest/metrics.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Logger } from '../logger.js';
import { startClientState } from './client-state.js';
import { buildPipeline } from './pipeline.js';
import { startDelivery, startTasks } from './runtime.js';

export interface RunningService {
  store: Store;
  pipeline: IngestPipeline;
  metrics: IngestMetrics;
  server: FastifyInstance;
  address: string;
  /** Says that start-up work (the demo's first ingest and jobs) is done: /readyz answers 200 from then on. */
  markReady: () => void;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /**
   * True when the composing code still has work to do before the service can
   * answer truly (the demo ingests and runs its jobs first): /readyz answers
   * 503 until it calls markReady().
   */
  startUpWork?: boolean;
}

/**
 * The worker process, composed here and nowhere else: one store, the webhook
 * delivery worker, the ingest pipeline (built with its webhook hooks), the
 * scheduler, the Kafka consumer, the refresh and ingestion tasks and the API,
 * stopped in reverse order on SIGTERM.
 */
export async function startService(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningService> {
  const store = await Store.open(config.AFFORD_DB, logger, storeOptions(config));
  // Several shards only: client-level state from the shared topic, before anything reads it.
  const clientState = await startClientState(store, config, logger);
  // Before the pipeline, whose hooks wake it after every batch that enqueued a webhook.
  const delivery = await startDelivery(store, config, logger);
  const pipeline = buildPipeline(store, logger, delivery.wake);
  const jobsLogger = logger.child({ component: 'jobs' });
  await recordInterruptedRuns({ store, logger: jobsLogger });
  const scheduler = startScheduler(JOBS, { store, config, logger: jobsLogger });
  const metrics = new IngestMetrics();
  // Every source counts: Kafka, HTTP ingest, and files ingested through the service.
  metrics.watch(store);
  // Created now, run once the rest is up: refresh tasks wait on its offsets (catchUp).
  const kafka = config.AFFORD_KAFKA_BROKERS?.length
    ? await KafkaIngest.create({ pipeline, metrics, logger, settings: kafkaIngestSettingsFromConfig(config) })
    : undefined;
  // With shards, what another shard owns is refused, from every source: the front would never read it here.
  if (clientState && kafka) pipeline.ownedElsewhere(ownedBy(kafka, config));
  const tasks = await startTasks({ store, pipeline, config, logger, wake: delivery.wake, catchUp: kafka?.catchUpProbe() });
  // Cleared on stop, so that requests still arriving get 503 rather than a closed store.
  let ready = true;
  let startedUp = !options.startUpWork;
  const apiDeps = { store, config, logger, metrics, isReady: () => ready, isStartedUp: () => startedUp, pipeline, refresh: tasks.refresh,
    ingestion: tasks.ingestion, foreignCustomers: clientState && kafka && ownedBy(kafka, config), webhookKeys: delivery.keys, clientStateBarrier: clientState && (() => clientState.caughtUp()) };
  const server = await buildServer(apiDeps);
  const address = await server.listen({ host: config.AFFORD_HOST, port: config.AFFORD_PORT });
  kafka?.run();
  if (!kafka) logger.info('no Kafka brokers configured (AFFORD_KAFKA_BROKERS): running without a Kafka consumer');
  logger.info({ address, db: config.AFFORD_DB }, 'afford is serving');
  let stopped = false;
  return {
    store,
    pipeline,
    metrics,
    server,
    address,
    markReady: () => {
      if (startedUp) return;
      startedUp = true;
      logger.info('start-up work done: ready');
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      ready = false;
      // The consumer first: it finishes its batch while the store is still open.
      await kafka?.stop();
      await server.close();
      await clientState?.stop();
      await tasks.refresh.stop();
      await delivery.worker.stop();
      await scheduler.stop();
      await store.close();
    },
  };
}

/** A shard applies an ingestion request only for its own customers: the front routes them there. */
function ownedBy(kafka: KafkaIngest, config: Config): (customerIds: readonly string[]) => Promise<string[]> {
  return async (customerIds) => foreignCustomers(customerIds, config.AFFORD_SHARD, await kafka.partitionCount());
}

/**
 * Stops the service on SIGTERM or SIGINT, then exits: 0 once it has
 * stopped, 1 if stopping failed. A second signal while it stops waits for
 * the same stop: called again, the service's stop returns at once, and the
 * process exited in the middle of the first, its store not yet closed.
 */
export function stopOnSignals(service: Pick<RunningService, 'stop'>, logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  let stopping: Promise<void> | undefined;
  const stop = (signal: string) => {
    logger.info({ signal }, stopping ? 'stopping already: waiting for it to end' : 'stopping');
    if (stopping) return;
    stopping = service.stop().then(
      () => exit(0),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
