import { storeOptions, type Config } from '../config.js';
import { Store } from '../db/store.js';
import { KafkaIngest } from '../ingest/kafka-ingest.js';
import { kafkaIngestSettingsFromConfig } from '../ingest/kafka-settings.js';
import { IngestMetrics } from '../ingest/metrics.js';
import type { Logger } from '../logger.js';
import { buildPipeline } from './pipeline.js';

/**
 * The Kafka consumer on its own (`afford ingest kafka`): the store, a
 * pipeline with its webhook hooks and the consumer. No delivery worker runs
 * here: the outbox fills, and `afford serve` sends it. stop() lets the
 * consumer finish its batch, then closes the store.
 */
export async function startConsumer(config: Config, logger: Logger): Promise<{ stop: () => Promise<void> }> {
  const store = await Store.open(config.AFFORD_DB, logger, storeOptions(config));
  const pipeline = buildPipeline(store, logger);
  const consumer = await KafkaIngest.start({ pipeline, metrics: new IngestMetrics(), logger, settings: kafkaIngestSettingsFromConfig(config) });
  return {
    stop: async () => {
      await consumer.stop();
      await store.close();
    },
  };
}
