import type { Command } from 'commander';
import { startService, stopOnSignals } from '../app.js';
import { cliContext } from './context.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the worker: API, nightly jobs, and the Kafka consumer when brokers are configured')
    .action(async () => {
      const ctx = cliContext();
      const service = await startService(ctx.config, ctx.logger);
      stopOnSignals(service, ctx.logger);
    });
}
