import type { FastifyInstance } from 'fastify';
import { JOBS } from '../jobs/registry.js';
import { startScheduler } from '../jobs/scheduler.js';
import { buildServer } from './api/server.js';
import type { Config } from './config.js';
import { Store } from './db/store.js';
import { IngestPipeline } from './ingest/pipeline.js';
import type { Logger } from './logger.js';

export interface RunningService {
  store: Store;
  pipeline: IngestPipeline;
  server: FastifyInstance;
  address: string;
  stop: () => Promise<void>;
}

/**
 * The worker process: one store, the ingest pipeline, the scheduler and the
 * API, stopped in reverse order on SIGTERM.
 */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const store = await Store.open(config.AFFORD_DB, logger);
  const pipeline = new IngestPipeline(store, logger.child({ component: 'ingest' }));
  const scheduler = startScheduler(JOBS, { store, config, logger: logger.child({ component: 'jobs' }) });
  const server = await buildServer({ store, config, logger });
  const address = await server.listen({ host: config.AFFORD_HOST, port: config.AFFORD_PORT });
  if (!config.AFFORD_KAFKA_BROKERS?.length) logger.info('no Kafka brokers configured (AFFORD_KAFKA_BROKERS): running without a Kafka consumer');
  logger.info({ address, db: config.AFFORD_DB }, 'afford is serving');
  let stopped = false;
  return {
    store,
    pipeline,
    server,
    address,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      await scheduler.stop();
      await store.close();
    },
  };
}

export function stopOnSignals(service: RunningService, logger: Logger): void {
  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping');
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
