import { existsSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Option, type Command } from 'commander';
import { SNAPSHOT_FILE } from '../../jobs/export-snapshot.js';
import { cliContext, out } from './context.js';
import { affordError } from '../domain/errors.js';
import { instanceSettings } from '../db/store.js';
import { toCsv, toJson, toTable } from './table-format.js';

type Format = 'table' | 'csv' | 'json';

/** DuckDB's messages run over several lines (the statement, a caret): the first says what is wrong. */
function firstLine(err: unknown): string {
  return String((err as Error).message ?? err).split('\n')[0]!.trim();
}

async function openReadOnly(dbPath: string, memoryLimit: string): Promise<DuckDBInstance> {
  try {
    return await DuckDBInstance.create(dbPath, { ...instanceSettings(memoryLimit), access_mode: 'READ_ONLY' });
  } catch (err) {
    if (/lock/i.test(firstLine(err))) {
      throw affordError('CLI_FAILED', `afford sql: ${dbPath} is open for writing in another process (a running afford serve?); query the snapshot instead, the default`);
    }
    throw affordError('CLI_FAILED', `afford sql: cannot open ${dbPath}: ${firstLine(err)}`);
  }
}

/**
 * `afford sql "SELECT ..."`: a read-only query on the snapshot that
 * export-parquet writes (or on another DuckDB file), so a data team needs
 * nothing else installed. The file is opened READ_ONLY: a statement that
 * writes is refused by DuckDB itself. Parquet exports are read with
 * read_parquet() in the query.
 */
export function registerSql(program: Command): void {
  program
    .command('sql')
    .argument('<query>', 'the SQL to run, e.g. "SELECT count(*) FROM transactions"')
    .description('run a read-only SQL query on the data-team snapshot (or --db FILE) and print a table, CSV or JSON')
    .option('--db <file>', 'DuckDB file to query (default: the snapshot in AFFORD_EXPORT_DIR)')
    .addOption(new Option('--csv', 'print CSV (a header line, then one line per row)').conflicts('json'))
    .option('--json', 'print a JSON array of row objects')
    .action(async (query: string, opts: { db?: string; csv?: boolean; json?: boolean }) => {
      const ctx = cliContext();
      const dbPath = path.resolve(opts.db ?? path.join(ctx.config.AFFORD_EXPORT_DIR, SNAPSHOT_FILE));
      if (!existsSync(dbPath)) {
        const hint = opts.db ? '' : ' (`afford jobs run export-parquet` writes it; --db chooses another file)';
        throw affordError('CLI_FAILED', `afford sql: no database at ${dbPath}${hint}`);
      }
      const format: Format = opts.json ? 'json' : opts.csv ? 'csv' : 'table';
      const instance = await openReadOnly(dbPath, ctx.config.AFFORD_DB_MEMORY_LIMIT);
      try {
        const conn = await instance.connect();
        try {
          const reader = await conn.runAndReadAll(query).catch((err: unknown) => {
            throw affordError('CLI_FAILED', `afford sql: ${firstLine(err)}`);
          });
          const columns = reader.columnNames();
          const rows = reader.getRowsJson();
          out(format === 'json' ? toJson(columns, rows) : format === 'csv' ? toCsv(columns, rows) : toTable(columns, rows));
        } finally {
          conn.closeSync();
        }
      } finally {
        instance.closeSync();
      }
    });
}
