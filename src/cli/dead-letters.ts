import { Option, type Command } from 'commander';
import { queryFile } from '../db/script.js';
import { cliContext, out, withStore } from './context.js';
import { listLimit } from './errors.js';
import type { Columns } from '../db/rows.js';

const DEAD_LETTER_COLUMNS: Columns<DeadLetterRow> = {
  dead_letter_id: 'text', created_at: 'text', source: 'text', source_ref: 'text', line_number: 'text',
  kafka_partition: 'number', kafka_offset: 'text', message_key: 'text', reason: 'text', raw: 'text',
};

interface DeadLetterRow {
  dead_letter_id: string;
  created_at: string;
  source: string;
  source_ref: string;
  line_number: string | null;
  kafka_partition: number | null;
  kafka_offset: string | null;
  message_key: string | null;
  reason: string;
  raw: string;
}

/** Where the bad input was: a file's line, a Kafka partition's offset, or an HTTP ingestion task's item. */
function whereFrom(d: DeadLetterRow): string {
  if (d.source === 'kafka') return `${d.source_ref}[${d.kafka_partition ?? '?'}]@${d.kafka_offset ?? '?'}`;
  return d.line_number === null ? d.source_ref : `${d.source_ref}:${d.line_number}`;
}

/**
 * `afford dead-letters`: what was rejected, where it came from and why,
 * newest first. Works beside `afford serve` too (forwarded to the service).
 */
export function registerDeadLetters(program: Command): void {
  program
    .command('dead-letters')
    .description('list the rejected inputs (dead letters), newest first, with where they came from and why')
    .addOption(new Option('--source <source>', 'only those of one source').choices(['file', 'kafka', 'http']))
    .option('--limit <n>', 'at most this many (up to 100,000)', listLimit, 50)
    .option('--json', 'print JSON for scripts, raw text (secrets redacted) included', false)
    .action(async (opts: { source?: string; limit: number; json: boolean }) => {
      const ctx = cliContext();
      const params = { source: opts.source ?? null };
      const { letters, total } = await withStore(ctx, (store) =>
        store.read(async (conn) => ({
          letters: await queryFile<DeadLetterRow>(conn, 'queries/dead-letters/list', { ...params, limit: opts.limit }, DEAD_LETTER_COLUMNS),
          total: (await queryFile<{ total: number }>(conn, 'queries/dead-letters/count', params, { total: 'number' }))[0]?.total ?? 0,
        })),
      );
      if (opts.json) {
        out(`${JSON.stringify(letters)}\n`);
        return;
      }
      const of = opts.source ? ` from ${opts.source}` : '';
      if (letters.length === 0) {
        out(`no dead letters${of}\n`);
        return;
      }
      for (const d of letters) out(`#${d.dead_letter_id}  ${d.created_at}  ${d.source.padEnd(5)}  ${whereFrom(d)}  ${d.reason.replace(/\s+/g, ' ')}\n`);
      out(`${letters.length} of ${total} dead letters${of}, newest first${letters.length < total ? ' (--limit shows more)' : ''}\n`);
    });
}
