import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

/**
 * Rows come back in JSON form: DECIMAL and BIGINT as strings (never a lossy
 * number), timestamps as 'YYYY-MM-DD HH:MM:SS[.fff]' in UTC.
 */
export type Row = Record<string, unknown>;
export type Params = Record<string, DuckDBValue> | DuckDBValue[];

export async function queryRows<T = Row>(conn: DuckDBConnection, sql: string, params?: Params): Promise<T[]> {
  const reader = await conn.runAndReadAll(sql, params);
  return reader.getRowObjectsJson() as T[];
}

export async function queryOne<T = Row>(conn: DuckDBConnection, sql: string, params?: Params): Promise<T | undefined> {
  const rows = await queryRows<T>(conn, sql, params);
  return rows[0];
}

export async function execute(conn: DuckDBConnection, sql: string, params?: Params): Promise<void> {
  await conn.run(sql, params);
}

// Timestamp text is converted in one place; these names stay for the modules that import them from here.
export { dbFromIso, isoFromDb } from '../domain/timestamps.js';
