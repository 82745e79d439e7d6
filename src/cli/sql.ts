import { existsSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, StatementType, type DuckDBConnection, type DuckDBPreparedStatement, type Json } from '@duckdb/node-api';
import { Option, type Command } from 'commander';
import { SNAPSHOT_FILE } from '../../jobs/export-snapshot.js';
import { cliContext, outStreamed } from './context.js';
import { affordError, errorCode } from '../domain/errors.js';
import { runScriptWithPaths } from '../db/script.js';
import { instanceSettings } from '../db/store.js';
import { csvLines, jsonArray, toTable } from './table-format.js';

type Format = 'table' | 'csv' | 'json';

/** Rows a table shows at most: it is for people, and its widths need every row it shows in memory. */
export const TABLE_ROWS = 10_000;

/** DuckDB's messages run over several lines (the statement, a caret): the first says what is wrong. */
function firstLine(err: unknown): string {
  return String((err as Error).message ?? err).split('\n')[0]!.trim();
}

/** The query as one prepared statement that reads; anything else is refused in one line. */
async function readingStatement(conn: DuckDBConnection, query: string): Promise<DuckDBPreparedStatement> {
  if (query.trim() === '') throw affordError('CLI_FAILED', 'afford sql: the query is empty');
  const statements = await conn.extractStatements(query);
  if (statements.count !== 1) throw affordError('CLI_FAILED', `afford sql: give one statement, not ${statements.count}`);
  const statement = await statements.prepare(0);
  if (statement.statementType !== StatementType.SELECT && statement.statementType !== StatementType.EXPLAIN) {
    throw affordError('CLI_FAILED', 'afford sql: only a query that reads is run (SELECT, SHOW, DESCRIBE, PRAGMA, EXPLAIN)');
  }
  return statement;
}

async function openReadOnly(dbPath: string, memoryLimit: string): Promise<DuckDBInstance> {
  try {
    return await DuckDBInstance.create(dbPath, {
      ...instanceSettings(memoryLimit), access_mode: 'READ_ONLY', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false',
    });
  } catch (err) {
    if (/lock/i.test(firstLine(err))) {
      throw affordError('CLI_FAILED', `afford sql: ${dbPath} is open for writing in another process (a running afford serve?); query the snapshot instead, the default`);
    }
    throw affordError('CLI_FAILED', `afford sql: cannot open ${dbPath}: ${firstLine(err)}`);
  }
}

/** DuckDB's error as one line of afford sql's; afford's own errors as they are. */
const failed = (err: unknown): never => {
  throw errorCode(err) === 'CLI_FAILED' ? err : affordError('CLI_FAILED', `afford sql: ${firstLine(err)}`);
};

/**
 * Runs the statement and prints its rows a chunk at a time: CSV and JSON are
 * written as they are converted, a table shows its first TABLE_ROWS rows and
 * counts the rest, so JavaScript never holds the whole result (3,000,000 rows
 * took 2.4 GB as one text). DuckDB holds the result until it is printed: its
 * streaming results end a failure part-way as if the rows had run out (the
 * client library cannot tell the two apart), so a result cut short would be
 * printed as whole. Materialised first, a failure is one line before any row.
 */
async function printResult(statement: DuckDBPreparedStatement, format: Format): Promise<void> {
  const result = await statement.run().catch(failed);
  const columns = result.columnNames();
  const shown: Json[][] = [];
  let total = 0;
  if (format === 'csv') await outStreamed(csvLines([columns]));
  if (format === 'json') await outStreamed(jsonArray.open);
  try {
    for await (const rows of result.yieldRowsJson()) {
      if (format === 'csv') await outStreamed(csvLines(rows));
      else if (format === 'json') await outStreamed(jsonArray.rows(columns, rows, total === 0));
      else shown.push(...rows.slice(0, Math.max(0, TABLE_ROWS - total)));
      total += rows.length;
    }
  } catch (err) {
    if (format === 'json') await outStreamed('\n');
    failed(err);
  }
  if (format === 'json') await outStreamed(jsonArray.close);
  if (format === 'table') await outStreamed(toTable(columns, shown, total));
}

/**
 * `afford sql "SELECT ..."`: a read-only query on the snapshot that
 * export-parquet writes (or on another DuckDB file), so a data team needs
 * nothing else installed. The file is opened READ_ONLY; the query is one
 * statement that reads (a SELECT, or PRAGMA, SHOW, DESCRIBE, which DuckDB
 * counts as one): COPY ... TO, ATTACH, SET and the rest are refused; and it
 * reaches no file but those of the export folder (sandbox-query.sql), so
 * neither the live store's secrets nor the machine's files. Parquet exports
 * are read with read_parquet() in the query.
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
          await runScriptWithPaths(conn, 'queries/db/sandbox-query', { export_dir: `${path.resolve(ctx.config.AFFORD_EXPORT_DIR)}${path.sep}` });
          const statement = await readingStatement(conn, query).catch(failed);
          await printResult(statement, format);
        } finally {
          conn.closeSync();
        }
      } finally {
        instance.closeSync();
      }
    });
}
