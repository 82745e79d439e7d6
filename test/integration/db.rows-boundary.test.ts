import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryJsonRows, queryRows } from '../../src/db/rows.js';
import { queryFile } from '../../src/db/script.js';
import type { Columns } from '../../src/db/rows.js';
import { tempStore } from '../helpers/store.js';

// One store serves both kinds of read.
let ctx: Awaited<ReturnType<typeof tempStore>>;
beforeAll(async () => {
  ctx = await tempStore();
});
afterAll(async () => ctx.cleanup());

describe('typed reads check their columns', () => {
  const read = <T>(sql: string, columns: Columns<T>) =>
    ctx.store.read((conn) => queryRows<T>(conn, sql, undefined, columns, 'the test query'));

  it('returns the rows when every column is there, of its kind (NULL values fit any kind)', async () => {
    const rows = await read<{ id: string; n: number; ok: boolean; tags: string[]; total: string; none: string | null }>(
      "SELECT 'a' AS id, 2::INTEGER AS n, true AS ok, ['x'] AS tags, 1.50::DECIMAL(38,2) AS total, NULL::VARCHAR AS none",
      { id: 'text', n: 'number', ok: 'boolean', tags: 'list', total: 'text', none: 'text' },
    );
    expect(rows).toEqual([{ id: 'a', n: 2, ok: true, tags: ['x'], total: '1.50', none: null }]);
  });

  it('refuses a result without a column the row type names, naming it', async () => {
    await expect(read<{ id: string; name: string }>("SELECT 'a' AS id", { id: 'text', name: 'text' })).rejects.toMatchObject({
      code: 'ROWS_MISMATCH',
      message: expect.stringMatching(/^the rows of the test query .*no column name/),
    });
  });

  it('refuses a count that is BIGINT (a string in JSON form) where the row type says number', async () => {
    await expect(read<{ n: number }>('SELECT count(*) AS n FROM range(3)', { n: 'number' })).rejects.toMatchObject({
      code: 'ROWS_MISMATCH',
      message: expect.stringContaining('n is BIGINT, not number'),
    });
  });

  it('checks a SQL file by its name: every product read of a file passes its columns', async () => {
    const rows = await ctx.store.read((conn) => queryFile<{ client_id: string }>(conn, 'queries/api/list-clients', {}, { client_id: 'text' }));
    expect(rows).toEqual([]);
    await expect(ctx.store.read((conn) => queryFile<{ nope: string }>(conn, 'queries/api/list-clients', {}, { nope: 'text' }))).rejects.toMatchObject({
      code: 'ROWS_MISMATCH',
      message: expect.stringContaining('queries/api/list-clients'),
    });
  });
});

describe('reads in JSON form (one JSON array built by DuckDB) check their rows the same way', () => {
  const readJson = <T>(sql: string, columns: Columns<T>) =>
    ctx.store.read((conn) => queryJsonRows<T>(conn, sql, undefined, columns, 'the JSON query'));

  const ROWS = `WITH r AS (SELECT i, 'n' || i AS name, (i * 1.25)::DECIMAL(38,2)::VARCHAR AS total, CASE WHEN i % 2 = 0 THEN ['x'] END AS tags
                FROM range(5000) t(i))`;

  it('gives the same rows, in the order the query asks for, as a read of the same rows one value at a time', async () => {
    const json = await readJson<{ i: number; name: string; total: string; tags: string[] | null }>(
      `${ROWS} SELECT to_json(list({'i': i::INTEGER, 'name': name, 'total': total, 'tags': tags} ORDER BY i DESC))::VARCHAR AS rows FROM r`,
      { i: 'number', name: 'text', total: 'text', tags: 'list' },
    );
    const plain = await ctx.store.read((conn) =>
      queryRows<{ i: number; name: string; total: string; tags: string[] | null }>(conn, `${ROWS} SELECT i::INTEGER AS i, name, total, tags FROM r ORDER BY i DESC`, undefined,
        { i: 'number', name: 'text', total: 'text', tags: 'list' }),
    );
    expect(json).toHaveLength(5000);
    expect(json[0]).toEqual({ i: 4999, name: 'n4999', total: '6248.75', tags: null });
    expect(json).toEqual(plain);
  });

  it('gives no rows for an empty result (DuckDB lists nothing as NULL)', async () => {
    expect(await readJson<{ i: number }>("SELECT to_json(list({'i': 1} ORDER BY 1))::VARCHAR AS rows FROM range(0)", { i: 'number' })).toEqual([]);
  });

  it('refuses rows without a field the row type names, or with a value of another kind, naming it', async () => {
    await expect(readJson<{ i: number; name: string }>("SELECT to_json([{'i': 1}])::VARCHAR AS rows", { i: 'number', name: 'text' })).rejects.toMatchObject({
      code: 'ROWS_MISMATCH',
      message: expect.stringMatching(/^the rows of the JSON query .*no column name/),
    });
    // A DECIMAL left as it is becomes a JSON number: the query must give money as text.
    await expect(readJson<{ total: string }>("SELECT to_json([{'total': 1.50::DECIMAL(38,2)}])::VARCHAR AS rows", { total: 'text' })).rejects.toMatchObject({
      code: 'ROWS_MISMATCH',
      message: expect.stringContaining('total is number, not text'),
    });
  });

  it('refuses a query that does not return one JSON text named rows', async () => {
    await expect(readJson<{ i: number }>('SELECT 1 AS i', { i: 'number' })).rejects.toMatchObject({ code: 'ROWS_MISMATCH' });
    await expect(readJson<{ i: number }>("SELECT '[]' AS rows FROM range(2)", { i: 'number' })).rejects.toMatchObject({ code: 'ROWS_MISMATCH' });
  });
});
