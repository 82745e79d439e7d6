import { describe, expect, it } from 'vitest';
import type { Job } from '../../jobs/job.js';
import { runJob } from '../../jobs/runner.js';
import { recordInterruptedRuns, startScheduler } from '../../jobs/scheduler.js';
import { loadConfig } from '../../src/config.js';
import { rows, silentLogger, tempStore } from '../helpers/store.js';

/** A promise that resolves once `release` is called: a step says it has started. */
function startSignal(): { started: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const started = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { started, release };
}

describe('the scheduler, as the service stops', () => {
  it('finishes the job in hand before it stops, so that the store is closed after it, and records its run', async () => {
    const ctx = await tempStore();
    try {
      const { started, release } = startSignal();
      const steps: string[] = [];
      const slow: Job = {
        name: 'slow-test-job',
        description: 'a job that takes a while',
        // Every second, node-cron's finest schedule.
        schedule: '* * * * * *',
        steps: [
          {
            name: 'wait-then-write',
            run: async (job) => {
              steps.push('started');
              release();
              await new Promise((resolve) => setTimeout(resolve, 600));
              await job.store.write((conn) => conn.run('CREATE TABLE IF NOT EXISTS scheduler_probe AS SELECT 1 AS n'));
              steps.push('wrote');
              return {};
            },
          },
        ],
      };
      const scheduler = startScheduler([slow], { store: ctx.store, config: loadConfig({}), logger: silentLogger });
      await started;
      await scheduler.stop();
      // Stopped only once the step had written: closing the store now cuts nothing short.
      expect(steps).toEqual(['started', 'wrote']);
      expect(await rows(ctx.store, "SELECT status FROM job_runs WHERE job_name = 'slow-test-job'")).toEqual([{ status: 'succeeded' }]);
    } finally {
      await ctx.cleanup();
    }
  });

  it('stops the job in hand at its next step, and records why', async () => {
    const ctx = await tempStore();
    try {
      const { started, release } = startSignal();
      const steps: string[] = [];
      const step = (name: string) => ({
        name,
        run: async () => {
          steps.push(name);
          release();
          await new Promise((resolve) => setTimeout(resolve, 300));
          return {};
        },
      });
      const twoSteps: Job = { name: 'two-step-job', description: 'a job of two steps', schedule: '* * * * * *', steps: [step('first'), step('second')] };
      const scheduler = startScheduler([twoSteps], { store: ctx.store, config: loadConfig({}), logger: silentLogger });
      await started;
      await scheduler.stop();
      expect(steps).toEqual(['first']);
      const [run] = await rows<{ status: string; message: string }>(ctx.store,
        "SELECT status, detail::JSON->>'message' AS message FROM job_runs WHERE job_name = 'two-step-job'");
      expect(run).toEqual({ status: 'failed', message: "stopped before its step 'second': the service is stopping" });
    } finally {
      await ctx.cleanup();
    }
  });

  it('starts no job that was still waiting for another one (a command run beside the service) when the stop came', async () => {
    const ctx = await tempStore();
    try {
      const events: string[] = [];
      const job = (name: string, ms: number, schedule: string): Job => ({
        name, description: name, schedule,
        steps: [{ name: 'wait', run: async () => {
          events.push(`${name} starts`);
          await new Promise((resolve) => setTimeout(resolve, ms));
          events.push(`${name} ends`);
          return {};
        } }],
      });
      const jc = { store: ctx.store, config: loadConfig({}), logger: silentLogger };
      // As `afford jobs run` forwarded to the service: it holds the store's jobs for a while.
      const forwarded = runJob(job('forwarded', 1500, 'manual'), jc, 'cli');
      const scheduler = startScheduler([job('every-second', 100, '* * * * * *')], jc);
      // The scheduled job comes due and waits behind the forwarded one; then the service stops.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await scheduler.stop();
      await forwarded;
      expect(events).toEqual(['forwarded starts', 'forwarded ends']);
      expect(await rows(ctx.store, 'SELECT job_name FROM job_runs ORDER BY started_at')).toEqual([{ job_name: 'forwarded' }]);
    } finally {
      await ctx.cleanup();
    }
  });

  it('records as failed, when the service starts, the runs a stopped process left running', async () => {
    const ctx = await tempStore();
    try {
      await ctx.store.write((conn) => conn.run("INSERT INTO job_runs (job_name, trigger, status, started_at) VALUES ('cut-short', 'schedule', 'running', TIMESTAMP '2026-01-01 02:00:00')"));
      expect(await recordInterruptedRuns({ store: ctx.store, logger: silentLogger })).toBe(1);
      const [run] = await rows<{ status: string; message: string; finished: boolean }>(ctx.store,
        "SELECT status, detail->>'$.message' AS message, finished_at IS NOT NULL AS finished FROM job_runs WHERE job_name = 'cut-short'");
      expect(run).toEqual({ status: 'failed', message: 'the process stopped before the run finished', finished: true });
      expect(await recordInterruptedRuns({ store: ctx.store, logger: silentLogger })).toBe(0);
    } finally {
      await ctx.cleanup();
    }
  });
});
