import { existsSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { afford, useServe, type Served } from '../helpers/cli.js';
import { fixturePath, STORAGE_FORMAT_SQL } from '../helpers/store.js';

const service = useServe('afford-serve-export-');
const { env } = service;
const db = path.join(service.dir, 'afford.duckdb');
const exportDir = path.join(service.dir, 'export');
const snapshot = path.join(exportDir, 'afford-snapshot.duckdb');

/** Commands the service ran for a caller, from its log. */
const forwarded = (serve: Served, command: string): boolean => serve.log().includes(`"command":"${command}`);

describe('the export inside afford serve, and the commands around it', () => {
  it('runs the export through the service, which keeps its lock on the database', async () => {
    const ingest = await afford(['ingest', 'file', fixturePath('hand-computed.ndjson')], env);
    expect(ingest.stdout).toMatch(/^read 19, inserted 12/);

    const run = await afford(['jobs', 'run', 'export-parquet'], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^export-parquet: succeeded .*exported 9 transactions.*snapshot .*afford-snapshot\.duckdb/);
    expect(run.code).toBe(0);
    expect(forwarded(service.serve, 'jobs run')).toBe(true);

    // Still forwarded, still working: the service still holds the file.
    const client = await afford(['clients', 'create', '--name', 'After the export', '--json'], env);
    expect(client.stderr).toBe('');
    expect(JSON.parse(client.stdout)).toMatchObject({ name: 'After the export' });
    expect(client.code).toBe(0);
    expect(forwarded(service.serve, 'clients create')).toBe(true);
    const again = await afford(['ingest', 'file', fixturePath('hand-computed.ndjson')], env);
    expect(again.stdout).toMatch(/^read 19, inserted 0, updated 0, deleted 0, unchanged 17, dead letters 2/);
    expect(again.code).toBe(0);

    // And no other process can open it for writing.
    await expect(DuckDBInstance.create(db)).rejects.toThrow(/lock/i);
  });

  it('lists the dead letters through the service, with their reasons', async () => {
    const list = await afford(['dead-letters', '--source', 'file'], env);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      expect.stringMatching(/^#\d+ .* file {3}\S*hand-computed\.ndjson:\d+ {2}\S/),
      expect.stringMatching(/^#\d+ .* file {3}\S*hand-computed\.ndjson:\d+ {2}\S/),
    ]);
    expect(list.stdout).toContain('data.amount.value: must be a decimal string with at most 2 decimals');
    expect(list.stdout).toMatch(/2 of 2 dead letters from file, newest first\n$/);
    expect(forwarded(service.serve, 'dead-letters')).toBe(true);

    const json = await afford(['dead-letters', '--limit', '1', '--json'], env);
    const letters = JSON.parse(json.stdout) as Array<{ source: string; reason: string; raw: string; line_number: string }>;
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ source: 'file', reason: expect.any(String), raw: expect.any(String) });

    expect((await afford(['dead-letters', '--source', 'kafka'], env)).stdout).toBe('no dead letters from kafka\n');
  });

  it('answers SQL on the snapshot while the service runs, and refuses to write', async () => {
    const table = await afford(['sql', 'SELECT customer_id, count(*) AS n, sum(amount) AS total FROM transactions GROUP BY ALL ORDER BY 1'], env);
    expect(table.stderr).toBe('');
    expect(table.stdout).toBe('customer_id | n | total\n------------+---+--------\ncust-1      | 9 | 6532.10\n(1 row)\n');

    const csv = await afford(['sql', '--csv', "SELECT customer_id, 'a,\"b\"' AS odd, NULL AS nothing FROM customers"], env);
    expect(csv.stdout).toBe('customer_id,odd,nothing\ncust-1,"a,""b""",\n');

    const parquet = path.join(exportDir, 'monthly_category_totals', '*', '*.parquet');
    const json = await afford(['sql', '--json', `SELECT month, sum(total) AS total FROM read_parquet('${parquet}', hive_partitioning = true) GROUP BY ALL ORDER BY month LIMIT 1`], env);
    expect(JSON.parse(json.stdout)).toEqual([{ month: '2024-01', total: expect.stringMatching(/^\d+\.\d{2}$/) }]);

    const write = await afford(['sql', 'DELETE FROM transactions'], env);
    expect(write.code).not.toBe(0);
    expect(write.stderr).toBe('afford sql: only a query that reads is run (SELECT, SHOW, DESCRIBE, PRAGMA, EXPLAIN)\n');

    // Nothing past the export folder: no file of the machine, not the live store (its secrets), no file written, no setting
    // changed, no second statement.
    const copied = path.join(path.dirname(db), 'copied.csv');
    for (const [query, why] of [
      ["SELECT * FROM read_csv('/etc/passwd')", /afford sql: .*(Permission|access|not allowed)/i],
      ["SELECT * FROM read_text('/etc/hostname')", /afford sql: .*(Permission|access|not allowed)/i],
      [`SELECT * FROM read_blob('${db}')`, /afford sql: .*(Permission|access|not allowed)/i],
      [`ATTACH '${db}' AS live (READ_ONLY)`, /afford sql: only a query that reads is run/],
      [`COPY (SELECT 1) TO '${copied}'`, /afford sql: .*(Permission|only a query that reads)/],
      // Within the export folder, where reading is allowed: still not written.
      [`COPY (SELECT 1) TO '${path.join(exportDir, 'evil.csv')}'`, /afford sql: only a query that reads is run/],
      ["SET memory_limit = '100GB'", /afford sql: only a query that reads is run/],
      ['SELECT 1 AS one; SELECT 2 AS two', /afford sql: give one statement, not 2/],
      ['   ', /afford sql: the query is empty/],
    ] as const) {
      const refused = await afford(['sql', query], env);
      expect({ query, code: refused.code, out: refused.stdout }).toEqual({ query, code: 1, out: '' });
      expect(refused.stderr, query).toMatch(why);
    }
    expect([existsSync(copied), existsSync(path.join(exportDir, 'evil.csv'))]).toEqual([false, false]);

    const live = await afford(['sql', '--db', db, 'SELECT count(*) FROM api_clients'], env);
    expect(live.code).not.toBe(0);
    expect(live.stderr).toMatch(/^afford sql: .*afford\.duckdb is open for writing in another process.*\n$/);
    expect(snapshot).toContain('export');
  });

  it('writes the snapshot in the older storage format, which any DuckDB from 1.0 opens (the store itself is in the newer one)', async () => {
    const instance = await DuckDBInstance.create(snapshot, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    try {
      expect((await conn.runAndReadAll(STORAGE_FORMAT_SQL)).getRowObjectsJson()).toEqual([{ format: 'v1.0.0+' }]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});
