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
    expect(run.stderr).toBe(`AFFORD_DB ${file} holds tables but is not an afford store (no schema_migrations): afford makes its own store; point AFFORD_DB at a new file\n`);
    expect(await tablesOf(file)).toEqual(['sales']);
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
