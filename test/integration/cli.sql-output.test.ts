import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afford } from '../helpers/cli.js';

const ROWS = 400_000;
const dir = mkdtempSync(path.join(tmpdir(), 'afford-sql-output-'));
const db = path.join(dir, 'rows.duckdb');
// A JavaScript heap far smaller than the result: a command that held the rows, or the text, whole would run out of it.
const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_EXPORT_DIR: path.join(dir, 'export'), NODE_OPTIONS: '--max-old-space-size=40' };

beforeAll(async () => {
  const instance = await DuckDBInstance.create(db);
  const conn = await instance.connect();
  await conn.run(`CREATE TABLE t AS SELECT range AS n, 'row ' || range || repeat('.', 40) AS s FROM range(${ROWS})`);
  conn.closeSync();
  instance.closeSync();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('afford sql prints a result of any size', () => {
  it('writes CSV and JSON as DuckDB makes the rows, in a heap smaller than the result', async () => {
    const csv = await afford(['sql', '--db', db, '--csv', 'SELECT n, s FROM t ORDER BY n'], env);
    expect(csv.stderr).toBe('');
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\n');
    expect(lines.length).toBe(ROWS + 2);
    expect([lines[0], lines[1], lines[ROWS], lines[ROWS + 1]]).toEqual(['n,s', `0,row 0${'.'.repeat(40)}`, `${ROWS - 1},row ${ROWS - 1}${'.'.repeat(40)}`, '']);

    const json = await afford(['sql', '--db', db, '--json', 'SELECT n, s FROM t ORDER BY n'], env);
    expect(json.stderr).toBe('');
    const rows = JSON.parse(json.stdout) as { n: string; s: string }[];
    expect(rows.length).toBe(ROWS);
    expect(rows[ROWS - 1]).toEqual({ n: String(ROWS - 1), s: `row ${ROWS - 1}${'.'.repeat(40)}` });
    // The pieces make exactly what one JSON.stringify of the whole array would.
    expect(json.stdout).toBe(`${JSON.stringify(rows)}\n`);
  });

  it('shows a table of the first 10,000 rows and counts them all', async () => {
    const table = await afford(['sql', '--db', db, 'SELECT n FROM t WHERE n < 10001 ORDER BY n'], env);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines.length).toBe(2 + 10_000 + 2);
    expect(lines.at(-3)).toBe('9999');
    expect(lines.slice(-2)).toEqual(['(10001 rows)', '(the first 10000 shown: --csv or --json prints them all)']);

    const small = await afford(['sql', '--db', db, 'SELECT n FROM t WHERE n < 2 ORDER BY n'], env);
    expect(small.stdout).toBe('n\n-\n0\n1\n(2 rows)\n');
  });

  it('ends with one line and exit code 1 when the query fails part-way, after whole lines of the rows before', async () => {
    const failing = await afford(['sql', '--db', db, '--csv', "SELECT CASE WHEN n < 300000 THEN n ELSE error('row ' || n || ' is bad') END AS n FROM t"], env);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^afford sql: .*row \d+ is bad\n$/);
    // What came before the failure is whole lines of rows (how many depends on DuckDB's threads).
    expect(failing.stdout).toMatch(/^(n\n(\d+\n)*)?$/);
  });
});
