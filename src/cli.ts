import { Command } from 'commander';
import { ConfigError, settingsHelp } from './config.js';
import { registerGenerate } from './cli/generate.js';
import { registerIngest } from './cli/ingest.js';
import { registerJobs } from './cli/jobs.js';
import { registerServe } from './cli/serve.js';
import { registerDemo } from './cli/demo.js';

const program = new Command('afford')
  .description('Affordability aggregation: bank transactions into monthly bucket totals and affordability reports.')
  .addHelpText('after', `\nConfiguration (environment variables):\n${settingsHelp()}\n`)
  .showHelpAfterError();

registerServe(program);
registerIngest(program);
registerJobs(program);
registerGenerate(program);
registerDemo(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`afford: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
