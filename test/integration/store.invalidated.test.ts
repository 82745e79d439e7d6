import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rebuildMonthlyTotals } from '../../jobs/rebuild-monthly-totals.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { loggedLines } from '../helpers/log-lines.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';
import { GENERIC_503, startApi } from '../helpers/api.js';
import { ingestFile } from '../../src/ingest/file-source.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

describe('a store that DuckDB invalidates when a checkpoint fails', () => {
  let ctx: Ctx;
  /** What the store logged, line by line. */
  const { logger, lines: logged } = loggedLines('warn');
  // A store of its own for each: how much memory DuckDB needs for a checkpoint depends on what ran before.
  beforeEach(async () => {
    ctx = await tempStore(logger);
    await ingestGenerated(ctx, { customers: 200, months: 12, seed: 3, faults: false, endMonth: '2024-06' });
  }, 120_000);
  afterEach(async () => ctx.cleanup());

  const STORED = `SELECT (SELECT count(*) FROM transactions)::INTEGER AS transactions, (SELECT count(*) FROM monthly_category_totals)::INTEGER AS totals,
    (SELECT sum(total) FROM monthly_category_totals)::VARCHAR AS sum`;

  it('leaves the store invalidated by DuckDB only until it is attached again, as its last commit left it', async () => {
    const before = await rows<{ totals: number }>(ctx.store, STORED);
    logged.length = 0;
    // At 16MB the rebuild of the whole store runs out of memory, and so does the job's checkpoint after it:
    // DuckDB then refuses every statement on the store. Attaching it again fails too while the job's limit
    // holds (replaying the log needs more); once the runner sets the store's own limit back, the next
    // statement that fails, here a read, brings it back.
    const failed = await runJob(rebuildMonthlyTotals, { store: ctx.store, config: loadConfig({}, { AFFORD_JOBS_DB_MEMORY_LIMIT: '16MB', AFFORD_JOBS_SLICE_TRANSACTIONS: '100000000' }), logger: silentLogger }, 'cli');
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/Out of Memory/);
    expect(logged.map((l) => l.msg)).toContain('DuckDB invalidated the store; attaching it again');
    expect(await vi.waitFor(() => rows(ctx.store, STORED), { timeout: 10_000, interval: 100 })).toEqual(before);
    expect(logged.map((l) => l.msg)).toContain('store attached again after DuckDB invalidated it; everything committed is there');
    const [run] = await rows<{ run_id: string; status: string }>(ctx.store, 'SELECT run_id::VARCHAR AS run_id, status FROM job_runs ORDER BY run_id DESC LIMIT 1');
    expect(run).toEqual({ run_id: failed.runId, status: 'failed' });
    // Writes work again, and the kept totals are whole.
    const again = await runJob(rebuildMonthlyTotals, { store: ctx.store, config: loadConfig({}), logger: silentLogger }, 'cli');
    expect(again.status).toBe('succeeded');
    expect(again.message).toBe(`no drift in ${before[0]?.totals} monthly total rows`);
  }, 60_000);

  it('takes a write whose COMMIT DuckDB made durable before the checkpoint after it failed for written', async () => {
    const before = await rows(ctx.store, STORED);
    const [limits] = await rows<{ memory: string; threshold: string }>(ctx.store, "SELECT current_setting('memory_limit') AS memory, current_setting('checkpoint_threshold') AS threshold");
    const set = (memory: string, threshold: string): Promise<void> =>
      ctx.store.writeUntransacted(async (conn) => {
        await conn.run(`SET memory_limit = '${memory}'`);
        await conn.run(`SET checkpoint_threshold = '${threshold}'`);
      });
    // Much for a checkpoint to write: the totals written again, the log's threshold out of the way.
    await set(String(limits?.memory), '1GB');
    await ctx.store.write(async (conn) => {
      await conn.run('CREATE TABLE totals_copy AS SELECT * FROM monthly_category_totals');
      await conn.run('DELETE FROM monthly_category_totals');
      await conn.run('INSERT INTO monthly_category_totals SELECT * FROM totals_copy');
    });
    // The next COMMIT checkpoints, in 16MB: DuckDB says the transaction is durable and the checkpoint failed.
    await set('16MB', '1KB');
    logged.length = 0;
    const written = await ctx.store.write(async (conn) => {
      await conn.run('CREATE TABLE written_marker AS SELECT 42 AS x');
      return 'written';
    });
    expect(written).toBe('written');
    expect(logged.map((l) => l.msg)).toContain('DuckDB invalidated the store; attaching it again');
    await set(String(limits?.memory), String(limits?.threshold));
    expect(await vi.waitFor(() => rows(ctx.store, 'SELECT x FROM written_marker'), { timeout: 10_000, interval: 100 })).toEqual([{ x: 42 }]);
    expect(await rows(ctx.store, STORED)).toEqual(before);
  }, 60_000);

  it('answers /readyz 503 while the store is invalidated, and 200 once it is attached again', async () => {
    const api = await startApi();
    try {
      const file = path.join(ctx.dir, 'events.ndjson');
      await ingestFile(api.pipeline, file, { batchRows: 5000 });
      const failed = await runJob(rebuildMonthlyTotals, { store: api.store, config: loadConfig({}, { AFFORD_JOBS_DB_MEMORY_LIMIT: '16MB', AFFORD_JOBS_SLICE_TRANSACTIONS: '100000000' }), logger: silentLogger }, 'cli');
      expect(failed.status).toBe('failed');
      // The last attempt to attach the store failed under the job's limit just now: the next waits a second.
      expect(await api.call('GET', '/readyz')).toMatchObject({ status: 503, body: GENERIC_503 });
      await vi.waitFor(async () => expect(await api.call('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } }), { timeout: 10_000, interval: 100 });
    } finally {
      await api.close();
    }
  }, 60_000);
});
