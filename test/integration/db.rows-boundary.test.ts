import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/rows.js';
import { queryFile } from '../../src/db/script.js';
import { tempStore } from '../helpers/store.js';

describe('typed reads check their columns', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
  });
  afterAll(async () => ctx.cleanup());

  const read = <T>(sql: string, columns: { [K in keyof T]: 'text' | 'number' | 'boolean' | 'list' | 'struct' }) =>
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
