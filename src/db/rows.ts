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

const JS_TYPE: Readonly<Record<ColumnKind, (v: unknown) => boolean>> = {
  text: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  list: (v) => Array.isArray(v),
  struct: (v) => typeof v === 'object' && !Array.isArray(v),
};

/**
 * The checked boundary of a read in JSON form: the first row must have each
 * field the row type names, of the kind it says (or null). One row is
 * enough: DuckDB built every row of the array from the same columns.
 */
function checkJsonRow(row: unknown, columns: Readonly<Record<string, ColumnKind>>, label: string): void {
  if (row === undefined) return;
  if (typeof row !== 'object' || row === null) throw affordError('ROWS_MISMATCH', label, 'a row is not an object');
  const fields = row as Record<string, unknown>;
  const problems = Object.entries(columns).flatMap(([name, want]) => {
    if (!(name in fields)) return [`no column ${name}`];
    const value = fields[name];
    return value === null || JS_TYPE[want](value) ? [] : [`${name} is ${typeof value}, not ${want}`];
  });
  if (problems.length) throw affordError('ROWS_MISMATCH', label, problems.join('; '));
}

/**
 * Typed rows of a query that returns them as one JSON text: one row with
 * one VARCHAR column `rows`, a JSON array of row objects (NULL for none),
 * which the query builds with to_json(list(... ORDER BY ...)). For reads of
 * thousands of rows this is several times cheaper than converting DuckDB's
 * values one by one: DuckDB writes the text and JSON.parse reads it. The
 * query must give text as VARCHAR (to_json writes a DECIMAL as a number).
 */
export async function queryJsonRows<T>(conn: DuckDBConnection, sql: string, params: Params | undefined, columns: Columns<T>, label = 'a query'): Promise<T[]> {
  const reader = await conn.runAndReadAll(sql, params);
  checkColumns(reader, { rows: 'text' }, label);
  if (reader.columnCount !== 1 || reader.currentRowCount !== 1) throw affordError('ROWS_MISMATCH', label, 'not one row of one column rows');
  const text = reader.getColumnsJS()[0]?.[0];
  const rows: unknown = typeof text === 'string' ? JSON.parse(text) : [];
  if (!Array.isArray(rows)) throw affordError('ROWS_MISMATCH', label, 'rows is not a JSON array');
  checkJsonRow(rows[0], columns as Readonly<Record<string, ColumnKind>>, label);
  return rows as T[];
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

