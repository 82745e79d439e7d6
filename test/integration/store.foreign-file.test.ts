import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { afford } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-foreign-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = (db: string) => ({ ...process.env, AFFORD_DB: db, AFFORD_EXPORT_DIR: path.join(dir, 'export') });

async function tablesOf(file: string, sql?: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(file);
  const conn = await instance.connect();
  try {
    if (sql) await conn.run(sql);
    return (await conn.runAndReadAll('SELECT table_name FROM duckdb_tables() ORDER BY 1')).getRowObjectsJson().map((r) => String(r['table_name']));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe('the store refuses a DuckDB file that is not its own', () => {
  it('leaves another program’s database as it was, in one line naming the file', async () => {
    const file = path.join(dir, 'sales.duckdb');
    expect(await tablesOf(file, 'CREATE TABLE sales (id INTEGER, amount DECIMAL(18,2)); INSERT INTO sales VALUES (1, 9.99)')).toEqual(['sales']);
    const run = await afford(['clients', 'list'], env(file));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`AFFORD_DB ${file} holds tables but is not an afford store (no record of afford's migrations): afford makes its own store; point AFFORD_DB at a new file\n`);
    expect(await tablesOf(file)).toEqual(['sales']);
  });

  it('tells another program’s record of migrations from afford’s, by its columns and its first migration', async () => {
    const cases = [
      ['migrate.duckdb', 'CREATE TABLE schema_migrations (version BIGINT, dirty BOOLEAN); INSERT INTO schema_migrations VALUES (3, false); CREATE TABLE users (id INTEGER)'],
      ['rails.duckdb', "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp); INSERT INTO schema_migrations (version, name) VALUES (20240101, 'init'); CREATE TABLE customers (id INTEGER)"],
      ['empty-record.duckdb', "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp); CREATE TABLE orders (id INTEGER)"],
    ] as const;
    for (const [name, sql] of cases) {
      const file = path.join(dir, name);
      const tables = await tablesOf(file, sql);
      const run = await afford(['clients', 'list'], env(file));
      expect([run.code, run.stderr], name).toEqual([1, `AFFORD_DB ${file} holds tables but is not an afford store (no record of afford's migrations): afford makes its own store; point AFFORD_DB at a new file\n`]);
      expect(await tablesOf(file), name).toEqual(tables);
    }
  });

  it('refuses a store written by a newer afford, and opens its own as before', async () => {
    const file = path.join(dir, 'afford.duckdb');
    expect((await afford(['clients', 'list'], env(file))).code).toBe(0);
    const tables = await tablesOf(file, 'INSERT INTO schema_migrations (version, name) VALUES (999, \'from_the_future\')');
    const run = await afford(['clients', 'list'], env(file));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^AFFORD_DB ${file} was written by a newer afford \\(its schema is at version 999, this afford knows up to \\d+\\): run that version\\n$`));
    expect(await tablesOf(file, "DELETE FROM schema_migrations WHERE version = 999")).toEqual(tables);
    expect((await afford(['clients', 'list'], env(file))).code).toBe(0);
  });
});
