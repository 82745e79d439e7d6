import { StatementType, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { sqlFile } from './sql-files.js';
import { queryJsonRows, queryRows, type Columns, type Row } from './rows.js';
import { affordError } from '../domain/errors.js';

/** Splits a SQL file into statements: each ends with `;` at the end of a line. */
export function statements(text: string): string[] {
  return text
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^(\s*--[^\n]*\n)+/g, '').trim())
    .filter((s) => s.length > 0 && !/^(--[^\n]*\s*)+$/.test(s));
}

function paramsFor(statement: string, params: Record<string, DuckDBValue>): Record<string, DuckDBValue> | undefined {
  const used = Object.entries(params).filter(([name]) => new RegExp(`\\$${name}\\b`).test(statement));
  return used.length ? Object.fromEntries(used) : undefined;
}

/** Runs every statement of `sql/<name>.sql`, binding to each the named parameters it uses. */
export async function runScript(conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue> = {}): Promise<void> {
  await runScriptCountingChanges(conn, name, params);
}

/**
 * runScript that returns how many stored rows its DELETE and UPDATE
 * statements changed: what a writer counts towards a checkpoint
 * (Store.noteChangedRows).
 */
export async function runScriptCountingChanges(conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue> = {}): Promise<number> {
  let changed = 0;
  for (const statement of statements(sqlFile(name))) {
    const result = await conn.run(statement, paramsFor(statement, params));
    if (result.statementType === StatementType.DELETE || result.statementType === StatementType.UPDATE) changed += result.rowsChanged;
  }
  return changed;
}

/** A SQL string literal: a quote is doubled inside it. A NUL, which DuckDB cannot hold in one, is refused. */
function pathLiteral(text: string): string {
  if (text.includes('\0')) throw affordError('PATH_NUL');
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Runs every statement of `sql/<name>.sql` with each `$name` of `paths`
 * replaced by its file path as a quoted SQL string literal: for statements
 * such as ATTACH, in which DuckDB binds no parameter.
 */
export async function runScriptWithPaths(conn: DuckDBConnection, name: string, paths: Record<string, string>): Promise<void> {
  for (const statement of statements(sqlFile(name))) {
    // A function as the replacement: a path's own `$&` or `$$` must not be read as a replacement pattern.
    await conn.run(Object.entries(paths).reduce((text, [key, file]) => text.replaceAll(`$${key}`, () => pathLiteral(file)), statement));
  }
}

/** Runs a one-statement SQL file and returns its rows, untyped. */
export async function queryFile(conn: DuckDBConnection, name: string, params?: Record<string, DuckDBValue>): Promise<Row[]>;
/** Runs a one-statement SQL file and returns its rows, checked against `columns` (see queryRows). */
export async function queryFile<T>(conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue>, columns: Columns<T>): Promise<T[]>;
export async function queryFile<T>(conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue> = {}, columns?: Columns<T>): Promise<T[] | Row[]> {
  const text = sqlFile(name);
  return columns ? queryRows<T>(conn, text, paramsFor(text, params), columns, name) : queryRows(conn, text, paramsFor(text, params));
}

/** Runs a one-statement SQL file that returns its rows as one JSON text (see queryJsonRows), checked against `columns`. */
export async function queryJsonFile<T>(conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue>, columns: Columns<T>): Promise<T[]> {
  const text = sqlFile(name);
  return queryJsonRows<T>(conn, text, paramsFor(text, params), columns, name);
}

/** Runs a job's SQL file; when its last statement is a SELECT (or WITH), returns that statement's first row. */
export async function runScriptWithResult(conn: DuckDBConnection, name: string): Promise<Record<string, unknown>> {
  const parts = statements(sqlFile(name));
  const last = parts.at(-1) ?? '';
  const returnsRows = /^(SELECT|WITH)\b/i.test(last);
  for (const s of returnsRows ? parts.slice(0, -1) : parts) await conn.run(s);
  if (!returnsRows) return {};
  const rows = await queryRows(conn, last);
  return rows[0] ?? {};
}
