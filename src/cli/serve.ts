import type { Command } from 'commander';
import { startService, stopOnSignals } from '../app/service.js';
import { startAdminServer, type BuildProgram } from './admin.js';
import { cliContext } from './context.js';

export function registerServe(program: Command, buildProgram: BuildProgram): void {
  program
    .command('serve')
    .description('run the worker: API, nightly jobs, and the Kafka consumer when brokers are configured')
    .action(async () => {
      const ctx = cliContext();
      const service = await startService(ctx.config, ctx.logger);
      const admin = startAdminServer({ store: service.store, pipeline: service.pipeline, config: ctx.config, logger: ctx.logger }, buildProgram);
      const stop = async (): Promise<void> => {
        await admin.close();
        await service.stop();
      };
      stopOnSignals({ ...service, stop }, ctx.logger);
    });
}
