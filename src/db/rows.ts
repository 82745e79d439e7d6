import { DuckDBTypeId, type DuckDBConnection, type DuckDBResultReader, type DuckDBValue } from '@duckdb/node-api';
import { affordError } from '../domain/errors.js';

/**
 * Rows come back in JSON form: DECIMAL and BIGINT as strings (never a lossy
 * number), timestamps as 'YYYY-MM-DD HH:MM:SS[.fff]' in UTC.
 */
export type Row = Record<string, unknown>;
export type Params = Record<string, DuckDBValue> | DuckDBValue[];

/**
 * What a column holds in JSON form: 'text' for VARCHAR and for DECIMAL,
 * BIGINT, timestamps and dates (strings, never a lossy number); 'number' for
 * the small integer and floating types; 'boolean'; 'list'; 'struct' (and MAP).
 */
export type ColumnKind = 'text' | 'number' | 'boolean' | 'list' | 'struct';

/** Every field of a typed row, with the kind of column it comes from: the compiler makes a read name them all. */
export type Columns<T> = { readonly [K in keyof T]: ColumnKind };

const NUMBER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER,
  DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER,
  DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE,
]);

function kindOf(typeId: DuckDBTypeId): ColumnKind | 'null' {
  if (typeId === DuckDBTypeId.SQLNULL) return 'null';
  if (typeId === DuckDBTypeId.BOOLEAN) return 'boolean';
  if (NUMBER_TYPES.has(typeId)) return 'number';
  if (typeId === DuckDBTypeId.LIST || typeId === DuckDBTypeId.ARRAY) return 'list';
  if (typeId === DuckDBTypeId.STRUCT || typeId === DuckDBTypeId.MAP) return 'struct';
  return 'text';
}

/**
 * The checked boundary of every typed read: the result must have each column
 * the row type names, of the kind it says (a column whose type is NULL fits any
 * kind). The check reads the result's column names and types once, never the
 * rows, so a read of a million rows pays for it once; a renamed column or a
 * count that turned BIGINT (a string in JSON form) fails here, by name,
 * instead of as an undefined or a string deep in the code.
 */
function checkColumns(reader: DuckDBResultReader, columns: Readonly<Record<string, ColumnKind>>, label: string): void {
  const names = reader.columnNames();
  const types = reader.columnTypes();
  const problems: string[] = [];
  for (const [name, want] of Object.entries(columns)) {
    const at = names.indexOf(name);
    const type = types[at];
    if (at === -1 || type === undefined) {
      problems.push(`no column ${name}`);
      continue;
    }
    const got = kindOf(type.typeId);
    if (got !== 'null' && got !== want) problems.push(`${name} is ${type.toString()}, not ${want}`);
  }
  if (problems.length) throw affordError('ROWS_MISMATCH', label, problems.join('; '));
}

/** Untyped rows, for callers that look at them as data (a console's query, a job's result). */
export async function queryRows(conn: DuckDBConnection, sql: string, params?: Params): Promise<Row[]>;
/** Typed rows: `columns` names every field of T and its kind, and the result is checked against it. */
export async function queryRows<T>(conn: DuckDBConnection, sql: string, params: Params | undefined, columns: Columns<T>, label?: string): Promise<T[]>;
export async function queryRows<T>(conn: DuckDBConnection, sql: string, params?: Params, columns?: Columns<T>, label = 'a query'): Promise<T[] | Row[]> {
  const reader = await conn.runAndReadAll(sql, params);
  if (columns) checkColumns(reader, columns as Readonly<Record<string, ColumnKind>>, label);
  return reader.getRowObjectsJson() as T[] | Row[];
}

