import type { Command } from 'commander';
import { cliContext, terminalProgress } from './context.js';
import { positiveInt } from './errors.js';
import { inputFile } from './input-file.js';


/** Resolves on the first SIGTERM or SIGINT. */
async function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
}

/** `afford ingest kafka` (the consumer on its own) and `afford produce`. */
export function registerKafka(program: Command): void {
  const ingest = program.commands.find((c) => c.name() === 'ingest') ?? program.command('ingest').description('read events into the DuckDB file');
  ingest
    .command('kafka')
    .description('consume the Kafka topics into the DuckDB file, exactly once, until SIGTERM')
    .action(async () => {
      const ctx = cliContext();
      // Listening from the start: a SIGTERM during start-up still stops cleanly once started.
      const stopSignal = untilSignal();
      // Imported here: the Kafka client is not loaded for the other `afford ingest` commands.
      const { startConsumer } = await import('../app/consumer.js');
      const consumer = await startConsumer(ctx.config, ctx.logger);
      const signal = await stopSignal;
      ctx.logger.info({ signal }, 'stopping the Kafka consumer');
      await consumer.stop();
      ctx.logger.info('Kafka consumer stopped');
      // Everything is committed and closed; a client still retrying a dead broker must not keep the process up.
      process.exit(0);
    });

  program
    .command('produce')
    .argument('<file>', "NDJSON event file, for example from 'afford generate', or '-' for standard input")
    .description('publish events to the Kafka topics, keyed by customer_id (lines without one get a null key)')
    .option('--topic <name>', 'publish every event to this one topic (default: spread customers over AFFORD_KAFKA_TOPICS)')
    .option('--batch <n>', 'messages per produce request', positiveInt, 1000)
    .action(async (file: string, opts: { topic?: string; batch: number }) => {
      if (file !== '-') inputFile('afford produce', file);
      const ctx = cliContext();
      const [{ produceFile }, { kafkaConnectionFromConfig }, { createProducer }] = await Promise.all([
        import('../ingest/kafka-produce.js'),
        import('../ingest/kafka-settings.js'),
        import('../ingest/kafka-client.js'),
      ]);
      const producer = createProducer(kafkaConnectionFromConfig(ctx.config), ctx.logger);
      const progress = terminalProgress('produce');
      const started = Date.now();
      try {
        const summary = await produceFile(producer, file, {
          topics: opts.topic ? [opts.topic] : ctx.config.AFFORD_KAFKA_TOPICS,
          batchMessages: opts.batch,
          onProgress: (n) => progress(n, 0, 'messages'),
        });
        progress.end();
        const seconds = (Date.now() - started) / 1000;
        const rate = seconds > 0 ? Math.round(summary.messages / seconds) : summary.messages;
        process.stdout.write(`produced ${summary.messages} messages (${summary.nullKeys} without a key) in ${seconds.toFixed(1)} s (${rate} messages/s)\n`);
        for (const [topic, n] of Object.entries(summary.byTopic)) process.stdout.write(`  ${topic}: ${n}\n`);
      } finally {
        await producer.close();
      }
    });
}
