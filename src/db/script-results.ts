import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from './sql-files.js';
import { queryRows } from './rows.js';
import { statements } from './script.js';

/** Runs a job's SQL file; when its last statement is a SELECT (or WITH), returns that statement's first row. */
export async function runScriptWithResult(conn: DuckDBConnection, name: string): Promise<Record<string, unknown>> {
  const parts = statements(sqlFile(name));
  const last = parts.at(-1) ?? '';
  const returnsRows = /^(SELECT|WITH)\b/i.test(last);
  for (const s of returnsRows ? parts.slice(0, -1) : parts) await conn.run(s);
  if (!returnsRows) return {};
  const rows = await queryRows<Record<string, unknown>>(conn, last);
  return rows[0] ?? {};
}
