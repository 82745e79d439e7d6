import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { exportParquetJob } from '../../jobs/export-parquet.js';
import { rebuildMonthlyTotals } from '../../jobs/rebuild-monthly-totals.js';
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

describe('the jobs that scan whole tables run DuckDB on every core, and set the threads back', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
    // One more thread than the machine has cores, so that "every core" is told apart from the instance's own number.
    await ctx.store.writeUntransacted((conn) => conn.run(`SET GLOBAL threads = ${availableParallelism() + 1}`));
  });
  afterAll(async () => ctx.cleanup());

  it('runs the steps of an everyCore job with one thread per core, whether they succeed or fail', async () => {
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path });
    const seen: number[] = [];
    const probe = (fail: boolean) => ({
      name: 'probe', description: 'reads the threads', schedule: 'nightly', everyCore: true,
      steps: [{ name: 'look', run: async () => {
        seen.push(await threadsNow(ctx));
        if (fail) throw new Error('the step failed');
        return {};
      } }],
    });
    expect((await runJob(probe(false), { store: ctx.store, config, logger: silentLogger }, 'cli')).status).toBe('succeeded');
    expect((await runJob(probe(true), { store: ctx.store, config, logger: silentLogger }, 'cli')).status).toBe('failed');
    expect(seen).toEqual([availableParallelism(), availableParallelism()]);
    expect(await threadsNow(ctx)).toBe(availableParallelism() + 1);
  });

  it('is what the rebuild and the export are, and the report job is not', () => {
    expect([rebuildMonthlyTotals.everyCore, exportParquetJob.everyCore, createAffordabilityReportsJob().everyCore]).toEqual([true, true, undefined]);
  });
});
