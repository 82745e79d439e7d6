import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { withDbThreads } from '../../src/db/threads.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

const threadsNow = async (ctx: Awaited<ReturnType<typeof tempStore>>): Promise<number> =>
  Number((await rows<{ t: string }>(ctx.store, "SELECT current_setting('threads')::VARCHAR AS t"))[0]?.t);

describe('the nightly report job runs DuckDB with AFFORD_JOBS_DB_THREADS threads, and sets them back', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: 3, months: 6, seed: 3, faults: false, endMonth: '2024-06' });
    // A machine of one core would make the test prove nothing: start from more threads than the job's.
    await ctx.store.writeUntransacted((conn) => conn.run('SET GLOBAL threads = 3'));
  });
  afterAll(async () => ctx.cleanup());

  const job = (seen: number[]) =>
    createAffordabilityReportsJob({ now: () => new Date('2024-07-15T02:00:00Z'), beforeCustomer: async () => void seen.push(await threadsNow(ctx)) });

  it('uses one thread by default while it reads and assembles, and the instance gets its three back', async () => {
    const seen: number[] = [];
    const run = await runJob(job(seen), { store: ctx.store, config: loadConfig({}, { AFFORD_DB: ctx.store.path }), logger: silentLogger }, 'cli');
    expect(run.status).toBe('succeeded');
    expect(seen).toEqual([1, 1, 1]);
    expect(await threadsNow(ctx)).toBe(3);
  });

  it('uses the number the setting gives', async () => {
    const seen: number[] = [];
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_JOBS_DB_THREADS: '2' });
    expect((await runJob(job(seen), { store: ctx.store, config, logger: silentLogger }, 'cli')).status).toBe('succeeded');
    expect(seen).toEqual([2, 2, 2]);
    expect(await threadsNow(ctx)).toBe(3);
  });

  it('sets the threads back when the work fails', async () => {
    await expect(withDbThreads(ctx.store, 1, async () => {
      expect(await threadsNow(ctx)).toBe(1);
      throw new Error('the work failed');
    })).rejects.toThrow('the work failed');
    expect(await threadsNow(ctx)).toBe(3);
  });

  it('refuses a setting that is not a whole number of threads, naming it', () => {
    expect(() => loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_JOBS_DB_THREADS: '0' })).toThrow(/AFFORD_JOBS_DB_THREADS/);
  });
});
