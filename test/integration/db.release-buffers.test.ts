import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBuffers } from '../../src/db/buffers.js';
import { rows, tempStore } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

describe('releaseBuffers', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
  });
  afterAll(async () => ctx.cleanup());

  const bufferedMiB = async (): Promise<number> =>
    (await rows<{ mib: number }>(ctx.store, 'SELECT (sum(memory_usage_bytes) / 1048576)::INTEGER AS mib FROM duckdb_memory()'))[0]?.mib ?? NaN;

  it('empties DuckDB\'s buffers to 64MB or less and gives the memory limit back', async () => {
    // Some 290 MB of strings no compression shrinks much, written and not yet checkpointed: held in the buffers.
    await ctx.store.write((conn) => conn.run('CREATE TABLE filler AS SELECT md5(i::VARCHAR) || md5((i + 1)::VARCHAR) || md5((i + 2)::VARCHAR) AS s FROM range(3000000) t(i)'));
    expect(await bufferedMiB()).toBeGreaterThan(100);
    await releaseBuffers(ctx.store, '192MB');
    expect(await bufferedMiB()).toBeLessThanOrEqual(64);
    expect(await rows(ctx.store, "SELECT current_setting('memory_limit') AS m")).toEqual([{ m: '183.1 MiB' }]);
    // Nothing is lost: what was evicted is read back.
    expect(await rows(ctx.store, 'SELECT count(DISTINCT s)::INTEGER AS n FROM filler')).toEqual([{ n: 3000000 }]);
  });

  it('lets no write run at the lower limit: one queued behind it, as a Kafka batch at the end of a job, gets the limit given back', async () => {
    const releasing = releaseBuffers(ctx.store, '192MB');
    const seen = ctx.store.write((conn) => rowsAs(conn, "SELECT current_setting('memory_limit') AS m"));
    await releasing;
    expect(await seen).toEqual([{ m: '183.1 MiB' }]);
  });
});
