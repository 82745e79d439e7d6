import { Command } from 'commander';
import { settingsHelp } from '../config.js';
import { registerGenerate } from './generate.js';
import { registerIngest } from './ingest.js';
import { registerKafka } from './kafka.js';
import { registerJobs } from './jobs.js';
import { registerServe } from './serve.js';
import { registerDemo } from './demo.js';
import { registerClients } from './clients.js';
import { registerReport } from './report.js';
import { registerWebhooks } from './webhooks.js';
import { registerCustomers } from './customers.js';
import { registerDeadLetters } from './dead-letters.js';
import { registerSql } from './sql.js';

/** The `afford` command. Built fresh for each run, also inside the service for forwarded commands. */
export function buildProgram(): Command {
  const program = new Command('afford')
    .description('Affordability aggregation: bank transactions into monthly bucket totals and affordability reports.')
    .addHelpText('after', `\nConfiguration (environment variables):\n${settingsHelp()}\n`)
    // One line for a mistake, with where to look, rather than the whole help text.
    .configureOutput({ outputError: (message, write) => write(`${message.trim().replace(/\s*\n\s*/g, ' ')} (see --help)\n`) });
  registerServe(program, buildProgram);
  registerIngest(program);
  registerKafka(program);
  registerJobs(program);
  registerGenerate(program);
  registerDemo(program, buildProgram);
  registerClients(program);
  registerReport(program);
  registerWebhooks(program);
  registerCustomers(program);
  registerDeadLetters(program);
  registerSql(program);
  return program;
}
