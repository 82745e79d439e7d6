import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { queryRows, type Params } from '../../src/db/rows.js';
import { queryFile } from '../../src/db/script.js';

/**
 * Rows in the shape a test expects, unchecked: the test's own assertions on
 * them are the check. Product code reads through the checked queryRows and
 * queryFile instead.
 */
export async function rowsAs<T>(conn: DuckDBConnection, sql: string, params?: Params): Promise<T[]> {
  return (await queryRows(conn, sql, params)) as unknown as T[];
}

/** A SQL file's rows in the shape a test expects (see rowsAs). */
export async function fileRowsAs<T>(conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue> = {}): Promise<T[]> {
  return (await queryFile(conn, name, params)) as unknown as T[];
}
