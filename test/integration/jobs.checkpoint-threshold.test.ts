import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../jobs/job.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { rows, silentLogger, tempStore } from '../helpers/store.js';

describe('a job runs with a checkpoint threshold of 1GB, and the store gets its own back', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
  });
  afterAll(async () => ctx.cleanup());

  const thresholdNow = async (): Promise<string> =>
    String((await rows<{ t: string }>(ctx.store, "SELECT current_setting('checkpoint_threshold') AS t"))[0]?.t);

  /** A job of one step that notes the threshold it sees, and fails when told to. */
  const probe = (seen: string[], fail: boolean): Job => ({
    name: 'probe', description: 'reads the checkpoint threshold', schedule: 'nightly',
    steps: [{ name: 'look', run: async () => {
      seen.push(await thresholdNow());
      if (fail) throw new Error('the step failed');
      return {};
    } }],
  });

  it('holds DuckDB\'s own checkpoints back while the job writes, whether it succeeds or fails, then sets the configured threshold again', async () => {
    const seen: string[] = [];
    for (const [env, fail, after] of [[{}, false, '61.0 MiB'], [{ AFFORD_DB_CHECKPOINT_THRESHOLD: '32MB' }, true, '30.5 MiB']] as const) {
      const config = loadConfig({}, { AFFORD_DB: ctx.store.path, ...env });
      const run = await runJob(probe(seen, fail), { store: ctx.store, config, logger: silentLogger }, 'cli');
      expect(run.status).toBe(fail ? 'failed' : 'succeeded');
      expect(await thresholdNow()).toBe(after);
    }
    expect(seen).toEqual(['953.6 MiB', '953.6 MiB']);
  });
});
