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

/** '2024-01-02 03:04:05.678' (UTC) -> '2024-01-02T03:04:05.678Z'; whole seconds lose the fraction. */
export function isoFromDb(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value);
  const [date, time = '00:00:00'] = s.split(' ');
  const [hms, frac] = time.split('.');
  return frac ? `${date}T${hms}.${frac.padEnd(3, '0').slice(0, 3)}Z` : `${date}T${hms}Z`;
}

/** ISO instant -> the UTC text DuckDB casts to TIMESTAMP. */
export function dbFromIso(iso: string): string {
  return iso.replace('T', ' ').replace('Z', '');
}
