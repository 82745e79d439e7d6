import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { writeEvents } from '../generate/index.js';
import { terminalProgress } from './context.js';
import { InvalidArgumentError } from 'commander';
import { addMonths, isMonth, lastCompleteMonths, monthOf } from '../domain/months.js';
import { positiveInt } from './errors.js';

/** Whole months of history: fifty years at most, within the years events may have. */
function monthsOfHistory(value: string): number {
  const n = positiveInt(value);
  if (n > 600) throw new InvalidArgumentError('It must be at most 600.');
  return n;
}

/** A month written YYYY-MM, in the years events may have (1970 to 2100). */
function monthArgument(value: string): string {
  const year = Number(value.slice(0, 4));
  if (!isMonth(value) || year < 1970 || year > 2100) throw new InvalidArgumentError('It must be a month written YYYY-MM, in the years 1970 to 2100.');
  return value;
}


export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('write deterministic synthetic UK bank events as NDJSON')
    .option('--customers <n>', 'number of customers', positiveInt, 100)
    .option('--months <n>', 'whole months of history, ending last month (at most 600)', monthsOfHistory, 12)
    .option('--seed <n>', 'random seed; the same seed gives the same file', positiveInt, 1)
    .option('--out <file>', "output file, or '-' for standard output", '-')
    .option('--end-month <YYYY-MM>', 'last month generated (default: last complete month)', monthArgument)
    .option('--faults', 'mix in replays, older versions, deletions and invalid lines', false)
    .action(async (opts: { customers: number; months: number; seed: number; out: string; faults: boolean; endMonth?: string }, command: Command) => {
      // Every month generated within what ingest takes: from 1970, and none after this one.
      const end = opts.endMonth ?? lastCompleteMonths(1).to;
      const first = addMonths(end, -(opts.months - 1));
      if (first < '1970-01' || end > monthOf(new Date())) {
        command.error(`error: the months generated, ${first} to ${end}, must lie between 1970-01 and this month`, { exitCode: 2, code: 'afford.generate.months' });
      }
      const out = opts.out === '-' ? process.stdout : createWriteStream(opts.out);
      const progress = terminalProgress('generate');
      const stats = await writeEvents(
        { customers: opts.customers, months: opts.months, seed: opts.seed, faults: opts.faults, endMonth: opts.endMonth },
        out,
        opts.customers >= 200 ? (done, total) => progress(done, total, 'customers') : undefined,
      );
      progress.end();
      if (out !== process.stdout) {
        out.end();
        await once(out, 'finish');
      }
      process.stderr.write(
        `generated ${stats.lines} lines (${stats.events} events${opts.faults ? `; faults: ${JSON.stringify(stats.faults)}` : ''})\n`,
      );
    });
}
