import cron, { type ScheduledTask } from 'node-cron';
import type { Job, JobContext } from './job.js';
import { runJobIf } from './runner.js';
import { queryFile } from '../src/db/script.js';

/** Why a scheduled run stopped part-way: the run records it. */
const STOPPING = 'the service is stopping';

/**
 * Starts node-cron: the 'nightly' jobs run one after another at the nightly
 * schedule; a job with its own cron expression runs on that. A run that is
 * still going when its next time comes is not started twice. Stopped, it
 * starts no more runs, and the run in hand stops at its next safe point.
 */
export function startScheduler(jobs: readonly Job[], ctx: JobContext): { stop: () => Promise<void> } {
  const tasks: ScheduledTask[] = [];
  const nightly = jobs.filter((j) => j.schedule === 'nightly');
  const own = jobs.filter((j) => j.schedule !== 'nightly');
  const opts = { timezone: 'UTC', noOverlap: true };
  let stopping = false;
  // A stop asks the job in hand to stop at its next safe point (between steps, chunks of customers or files of the
  // export; see JobContext.signal): the service then stops within a chunk's time, not a whole job's.
  const stopped = new AbortController();
  const jobCtx: JobContext = { ...ctx, signal: stopped.signal };
  // The runs going now: a stop waits for them (node-cron's own stop only clears its timers), and the store closes
  // after them, not under them.
  const running = new Set<Promise<unknown>>();
  const track = (run: () => Promise<unknown>) => async (): Promise<void> => {
    const going = run().catch((err: unknown) => ctx.logger.error({ err }, 'a scheduled job could not run'));
    running.add(going);
    await going.finally(() => running.delete(going));
  };
  if (nightly.length) {
    tasks.push(
      cron.schedule(ctx.config.AFFORD_NIGHTLY_CRON, track(async () => {
        // A stop between two jobs of the batch starts no more of them, nor one still waiting for another job to end.
        for (const job of nightly) if (!stopping) await runJobIf(() => !stopping, job, jobCtx, 'schedule');
      }), { ...opts, name: 'nightly' }),
    );
  }
  for (const job of own) {
    tasks.push(cron.schedule(job.schedule, track(() => runJobIf(() => !stopping, job, jobCtx, 'schedule')), { ...opts, name: job.name }));
  }
  ctx.logger.info({ nightly: ctx.config.AFFORD_NIGHTLY_CRON, jobs: jobs.map((j) => `${j.name} (${j.schedule})`) }, 'scheduler started');
  return {
    stop: async () => {
      stopping = true;
      stopped.abort(STOPPING);
      for (const t of tasks) await t.stop();
      if (running.size > 0) ctx.logger.info({ jobs: running.size }, 'waiting for the job in hand to stop at its next safe point');
      await Promise.all(running);
    },
  };
}

/**
 * Records as failed the runs that a stopped or killed process left
 * 'running', for `afford jobs list` and the next engineer's eyes: called as
 * the service starts, when none of them can still be going.
 */
export async function recordInterruptedRuns(ctx: Pick<JobContext, 'store' | 'logger'>): Promise<number> {
  const detail = JSON.stringify({ message: 'the process stopped before the run finished' });
  const rows = await ctx.store.write((conn) => queryFile<{ run_id: string }>(conn, 'queries/jobs/record-interrupted-runs', { detail }, { run_id: 'text' }));
  if (rows.length > 0) ctx.logger.warn({ runs: rows.map((r) => r.run_id) }, 'job runs a stopped process left unfinished are recorded as failed');
  return rows.length;
}
