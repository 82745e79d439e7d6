import { Command } from 'commander';
import { settingsHelp } from '../config.js';
import type { BuildProgram } from './admin.js';
import { refuseRepeats } from './repeated-options.js';

type Registrar = (program: Command, buildProgram: BuildProgram) => void;

/**
 * Each top-level command and how to load what registers it, in the order
 * of the help text. A command's module is imported only when it is asked
 * for: importing every command (the API, the PDF renderer, Kafka) costs
 * about half a second and some 55 MiB before `afford ingest file` reads a
 * line.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Registrar>>> = {
  serve: async () => (await import('./serve.js')).registerServe,
  ingest: async () => (await import('./ingest.js')).registerIngest,
  // `afford ingest kafka` and `afford produce`.
  produce: async () => (await import('./kafka.js')).registerKafka,
  jobs: async () => (await import('./jobs.js')).registerJobs,
  generate: async () => (await import('./generate.js')).registerGenerate,
  demo: async () => (await import('./demo.js')).registerDemo,
  clients: async () => (await import('./clients.js')).registerClients,
  report: async () => (await import('./report.js')).registerReport,
  webhooks: async () => (await import('./webhooks.js')).registerWebhooks,
  customers: async () => (await import('./customers.js')).registerCustomers,
  'dead-letters': async () => (await import('./dead-letters.js')).registerDeadLetters,
  sql: async () => (await import('./sql.js')).registerSql,
};

/** The commands that `argv` needs: its first word's (`ingest` also brings `ingest kafka`), or all of them for help and mistakes. */
function commandsFor(argv: readonly string[] | undefined): string[] {
  const first = argv?.[0];
  if (first === 'ingest') return ['ingest', 'produce'];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
}

/**
 * The `afford` command, with the commands `argv` needs (all of them when
 * `argv` is not given). Built fresh for each run, also inside the service
 * for forwarded commands.
 */
export const buildProgram: BuildProgram = async (argv) => {
  const program = new Command('afford')
    .description('Affordability aggregation: bank transactions into monthly bucket totals and affordability reports.')
    .addHelpText('after', `\nConfiguration (environment variables):\n${settingsHelp()}\n`)
    // One line for a mistake, with where to look, rather than the whole help text.
    .configureOutput({ outputError: (message, write) => write(`${message.trim().replace(/\s*\n\s*/g, ' ')} (see --help)\n`) });
  const registrars = await Promise.all(commandsFor(argv).map((name) => (COMMANDS[name] as () => Promise<Registrar>)()));
  for (const register of registrars) register(program, buildProgram);
  refuseRepeats(program);
  // A usage mistake throws (commander's CommanderError) rather than exit the process: the command line exits 2,
  // the service answers its caller (admin.ts).
  const every = (command: Command): Command[] => [command, ...command.commands.flatMap(every)];
  for (const command of every(program)) command.exitOverride();
  return program;
};
