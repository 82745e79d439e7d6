import { loadConfig } from './config.js';
import { forwardToService } from './cli/admin.js';
import { oneLineMessage } from './cli/errors.js';
import { errorCode } from './domain/errors.js';
import { buildProgram } from './cli/program.js';
import { CommanderError } from 'commander';

const argv = process.argv.slice(2);

// The reader of our output went away (`afford generate | head`): stop quietly, as a pipeline expects.
const SIGPIPE_EXIT = 141;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(SIGPIPE_EXIT);
    // Any other failure to write (a full disk, ENOSPC): one line on standard error, when it is standard output that
    // failed (never a line in the output itself), and a failed exit.
    try {
      if (stream === process.stdout) process.stderr.write(`afford: cannot write the output: ${err.code ?? err.message}\n`);
    } finally {
      process.exit(1);
    }
  });
}

async function main(): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv, { from: 'user' });
  } catch (err) {
    // Help shown ends well; a usage mistake (already said in one line) is exit code 2.
    if (err instanceof CommanderError) {
      // Help ends at once, as commander's own exit did: its reader may be gone (afford --help | head).
      if (err.exitCode === 0) process.exit(0);
      process.exitCode = 2;
      return;
    }
    if (errorCode(err) !== 'DATABASE_BUSY') throw err;
    // The service holds the file: run the command there instead.
    const response = await forwardToService(loadConfig().AFFORD_DB, argv);
    process.stdout.write(response.output);
    if (response.error) process.stderr.write(`${response.error}\n`);
    process.exitCode = response.exitCode;
  }
}

main().catch((err: unknown) => {
  // An ordinary mistake gets one line; only a bug shows its stack.
  const line = oneLineMessage(err);
  process.stderr.write(line !== undefined ? `${line}\n` : `afford: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
