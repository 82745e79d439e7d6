import type { Command } from 'commander';
import { JOBS, findJob } from '../../jobs/registry.js';
import { runJobIf } from '../../jobs/runner.js';
import { queryFile } from '../db/script.js';
import { cliContext, out, serviceScope, setExitCode, terminalProgress, withStore, errOut } from './context.js';

export function registerJobs(program: Command): void {
  const jobs = program.command('jobs').description('list and run the scheduled jobs');
  jobs
    .command('list')
    .description('list the jobs, their schedules and their last runs')
    .action(async () => {
      const ctx = cliContext();
      const last = await withStore(ctx, (store) =>
        store.read((conn) => queryFile<{ job_name: string; status: string; started_at: string }>(conn, 'queries/jobs/last-runs', {}, { job_name: 'text', status: 'text', started_at: 'text' })),
      );
      for (const job of JOBS) {
        const run = last.find((r) => r.job_name === job.name);
        const schedule = job.schedule === 'nightly' ? `nightly (${ctx.config.AFFORD_NIGHTLY_CRON} UTC)` : `${job.schedule} UTC`;
        const lastRun = run ? `last run ${run.started_at}: ${run.status}` : 'never run';
        out(`${job.name.padEnd(26)} ${schedule.padEnd(28)} ${lastRun}\n    ${job.description}\n`);
      }
    });
  jobs
    .command('run')
    .argument('<name>', 'job name, or "all" for the nightly batch in order')
    .description('run a job now and record the run')
    .action(async (name: string) => {
      const ctx = cliContext();
      const selected = name === 'all' ? [...JOBS] : [findJob(name)].filter((j) => j !== undefined);
      if (selected.length === 0) {
        errOut(`unknown job '${name}'; known jobs: ${JOBS.map((j) => j.name).join(', ')}\n`);
        setExitCode(2);
        return;
      }
      // Inside the service: when the caller goes away (Ctrl-C), the job in hand stops at its next safe point and no other starts.
      const signal = serviceScope.getStore()?.signal;
      await withStore(ctx, async (store) => {
        for (const job of selected) {
          const progress = terminalProgress(job.name);
          const result = await runJobIf(() => signal?.aborted !== true, job, { store, config: ctx.config, logger: ctx.logger, progress, signal }, 'cli');
          progress.end();
          if (!result) return;
          out(`${job.name}: ${result.status} in ${(result.ms / 1000).toFixed(1)} s: ${result.message}\n`);
          if (result.status !== 'succeeded') setExitCode(1);
        }
      });
    });
}
