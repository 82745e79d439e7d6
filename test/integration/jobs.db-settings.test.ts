import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../jobs/job.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { rows, silentLogger, tempStore } from '../helpers/store.js';

describe('a job runs with a checkpoint threshold of 1GB and the jobs\' memory limit, and the store gets its own back', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
  });
  afterAll(async () => ctx.cleanup());

  const settingsNow = async (): Promise<string> =>
    String(Object.values((await rows<{ t: string; m: string }>(ctx.store, "SELECT current_setting('checkpoint_threshold') AS t, current_setting('memory_limit') AS m"))[0] ?? {}));

  /** A job of one step that notes the threshold it sees, and fails when told to. */
  const probe = (seen: string[], fail: boolean): Job => ({
    name: 'probe', description: 'reads the checkpoint threshold and the memory limit', schedule: 'nightly',
    steps: [{ name: 'look', run: async () => {
      seen.push(await settingsNow());
      if (fail) throw new Error('the step failed');
      return {};
    } }],
  });

  it('holds DuckDB\'s own checkpoints back and gives it the jobs\' memory while the job runs, whether it succeeds or fails, then sets the store\'s again', async () => {
    const seen: string[] = [];
    const cases = [
      [{}, false, '61.0 MiB,91.5 MiB'],
      [{ AFFORD_DB_CHECKPOINT_THRESHOLD: '32MB', AFFORD_DB_MEMORY_LIMIT: '256MB', AFFORD_JOBS_DB_MEMORY_LIMIT: '300MB' }, true, '30.5 MiB,244.1 MiB'],
    ] as const;
    for (const [env, fail, after] of cases) {
      const config = loadConfig({}, { AFFORD_DB: ctx.store.path, ...env });
      const run = await runJob(probe(seen, fail), { store: ctx.store, config, logger: silentLogger }, 'cli');
      expect(run.status).toBe(fail ? 'failed' : 'succeeded');
      expect(await settingsNow()).toBe(after);
    }
    expect(seen).toEqual(['953.6 MiB,122.0 MiB', '953.6 MiB,286.1 MiB']);
  });

  it('gives a job the jobs\' memory limit even when the store\'s is larger, and the store\'s back afterwards', async () => {
    const seen: string[] = [];
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_DB_MEMORY_LIMIT: '0.5GB' });
    expect((await runJob(probe(seen, false), { store: ctx.store, config, logger: silentLogger }, 'cli')).status).toBe('succeeded');
    expect(seen).toEqual(['953.6 MiB,122.0 MiB']);
    expect(await settingsNow()).toBe('61.0 MiB,476.8 MiB');
  });

  it('records a job whose own settings cannot be set as failed, without running it, and leaves the store\'s settings in force', async () => {
    let ran = false;
    const job: Job = {
      name: 'unsettable', description: 'asks for a compression method DuckDB does not have', schedule: 'nightly',
      dbSettings: { disabled_compression_methods: 'no_such_method' },
      steps: [{ name: 'never', run: async () => {
        ran = true;
        return {};
      } }],
    };
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path });
    const run = await runJob(job, { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/no_such_method/i);
    expect(ran).toBe(false);
    expect(await settingsNow()).toBe('61.0 MiB,91.5 MiB');
    expect(await rows(ctx.store, `SELECT status FROM job_runs WHERE run_id = '${run.runId}'`)).toEqual([{ status: 'failed' }]);
  });

  it('sets every setting back when one of a job\'s settings fails part-way', async () => {
    // The checkpoint threshold is set first, then the memory limit, which fails: the threshold must come back too.
    // A limit the settings would refuse (it is below 16MB), to make DuckDB refuse it part-way.
    const config = { ...loadConfig({}, { AFFORD_DB: ctx.store.path }), AFFORD_JOBS_DB_MEMORY_LIMIT: '1KB' };
    const run = await runJob(probe([], false), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status).toBe('failed');
    expect(await settingsNow()).toBe('61.0 MiB,91.5 MiB');
  });
});
