import cron, { type ScheduledTask } from 'node-cron';
import type { Job, JobContext } from './job.js';
import { runJob } from './runner.js';

/**
 * Starts node-cron: the 'nightly' jobs run one after another at the nightly
 * schedule; a job with its own cron expression runs on that. A run that is
 * still going when its next time comes is not started twice.
 */
export function startScheduler(jobs: readonly Job[], ctx: JobContext): { stop: () => Promise<void> } {
  const tasks: ScheduledTask[] = [];
  const nightly = jobs.filter((j) => j.schedule === 'nightly');
  const own = jobs.filter((j) => j.schedule !== 'nightly');
  const opts = { timezone: 'UTC', noOverlap: true };
  if (nightly.length) {
    tasks.push(
      cron.schedule(ctx.config.AFFORD_NIGHTLY_CRON, async () => {
        for (const job of nightly) await runJob(job, ctx, 'schedule');
      }, { ...opts, name: 'nightly' }),
    );
  }
  for (const job of own) {
    tasks.push(cron.schedule(job.schedule, async () => void (await runJob(job, ctx, 'schedule')), { ...opts, name: job.name }));
  }
  ctx.logger.info({ nightly: ctx.config.AFFORD_NIGHTLY_CRON, jobs: jobs.map((j) => `${j.name} (${j.schedule})`) }, 'scheduler started');
  return {
    stop: async () => {
      for (const t of tasks) await t.stop();
    },
  };
}
