import { ConfigError, loadConfig } from './config.js';
import { forwardToService } from './cli/admin.js';
import { DatabaseBusyError } from './db/store.js';
import { buildProgram } from './cli/program.js';

const argv = process.argv.slice(2);

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof DatabaseBusyError)) throw err;
    // The service holds the file: run the command there instead.
    const response = await forwardToService(loadConfig().AFFORD_DB, argv);
    process.stdout.write(response.output);
    if (response.error) process.stderr.write(`${response.error}\n`);
    process.exitCode = response.exitCode;
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`afford: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
