import { availableParallelism } from 'node:os';
import { announceDataChange } from '../src/db/data-changes.js';
import { queryFile, runScript, runScriptWithResult } from '../src/db/script.js';
import { withDbSettings, withDbSettingsRestored } from '../src/db/db-settings.js';
import { collectGarbage } from '../src/heap.js';
import { releaseBuffers } from '../src/db/buffers.js';
import { withDbThreads } from '../src/db/threads.js';
import { errorCode } from '../src/domain/errors.js';
import { stopIfAsked, type Job, type JobContext } from './job.js';

export interface JobRunResult {
  runId: string;
  job: string;
  status: 'succeeded' | 'failed';
  message: string;
  results: Record<string, Record<string, unknown>>;
  ms: number;
}

/**
 * DuckDB's checkpoint threshold while a job runs (its memory limit is
 * AFFORD_JOBS_DB_MEMORY_LIMIT). A job checkpoints once,
 * when it ends (below); DuckDB's own checkpoints at the ingest's threshold
 * (AFFORD_DB_CHECKPOINT_THRESHOLD) in the middle of the report job held
 * more of what it wrote in memory: `jobs run all` on 2,000 customers peaked
 * at 708 MiB with 64MB against 658 MiB with 1GB.
 */
const JOB_CHECKPOINT_THRESHOLD = '1GB';

/** The last job asked for on a store, which the next waits for: `ended` once it has run (or been let go). */
interface LastJob {
  settled: Promise<unknown>;
  ended: boolean;
}

/** The last job started on each store, which the next waits for. */
const lastJobOf = new WeakMap<object, LastJob>();

/**
 * Runs a job's steps in order and records the run, whatever happens, in
 * job_runs. Jobs on one store run one at a time, in the order asked: each
 * sets the store's DuckDB settings for its length and sets them back after,
 * and the exports write fixed files; a command run beside `afford serve`
 * during the nightly batch used to run at the same time as it (a snapshot
 * export then removed the other's file, and the threads setting stayed at
 * every core once their settings' restores crossed).
 */
export function runJob(job: Job, ctx: JobContext, trigger: 'schedule' | 'cli' | 'api'): Promise<JobRunResult> {
  return runJobIf(() => true, job, ctx, trigger) as Promise<JobRunResult>;
}

/**
 * runJob, unless `startIf` says no once the job before it on the store has
 * ended (a scheduler stopped while its job waited): then nothing runs, no
 * run is recorded, and it resolves to undefined.
 */
export function runJobIf(startIf: () => boolean, job: Job, ctx: JobContext, trigger: 'schedule' | 'cli' | 'api'): Promise<JobRunResult | undefined> {
  const before = lastJobOf.get(ctx.store);
  // Only while it runs: a job asked for once the one before has ended (the next of `jobs run all`) does not wait.
  if (before && !before.ended) ctx.logger.info({ job: job.name }, 'job waits for the job in hand to end');
  const mine: LastJob = { settled: Promise.resolve(), ended: false };
  const run = (before?.settled ?? Promise.resolve())
    .then(() => (startIf() ? runAlone(job, ctx, trigger) : undefined))
    .finally(() => {
      mine.ended = true;
    });
  mine.settled = run.then(() => undefined, () => undefined);
  lastJobOf.set(ctx.store, mine);
  void mine.settled.then(() => {
    if (lastJobOf.get(ctx.store) === mine) lastJobOf.delete(ctx.store);
  });
  return run;
}

async function runAlone(job: Job, ctx: JobContext, trigger: 'schedule' | 'cli' | 'api'): Promise<JobRunResult> {
  const started = Date.now();
  const [row] = await ctx.store.write((conn) => queryFile<{ run_id: string }>(conn, 'queries/jobs/record-run-start', { job_name: job.name, trigger }, { run_id: 'text' }));
  const runId = String(row?.run_id);
  const log = ctx.logger.child({ job: job.name, run_id: runId });
  const results: Record<string, Record<string, unknown>> = {};
  let status: JobRunResult['status'] = 'succeeded';
  let message = 'ok';
  const runSteps = async (): Promise<void> => {
    for (const step of job.steps) {
      stopIfAsked(ctx, `before its step '${step.name}'`);
      const stepStarted = Date.now();
      results[step.name] = 'sql' in step
        ? await ctx.store.write((conn) => runScriptWithResult(conn, `jobs/${step.sql}`))
        : await step.run(ctx);
      // A step may rewrite any customer's figures (the rebuild replaces them all): cached answers go.
      announceDataChange(ctx.store, { kind: 'everything' });
      log.info({ step: step.name, ms: Date.now() - stepStarted }, 'job step done');
    }
  };
  const runVerdict = async (): Promise<void> => {
    try {
      await (job.everyCore ? withDbThreads(ctx.store, availableParallelism(), runSteps) : runSteps());
      if (job.verdict) {
        const v = job.verdict(results);
        status = v.ok ? 'succeeded' : 'failed';
        message = v.message;
      }
    } catch (err) {
      status = 'failed';
      message = (err as Error).message;
      if (errorCode(err) === 'JOB_STOPPED') log.warn({ reason: message }, 'job stopped');
      else log.error({ err }, 'job failed');
    }
  };
  let ended = false;
  let unrecorded: unknown;
  /** Records the run's end and checkpoints; `memoryLimit` is the limit in force, given back after emptying the buffers. */
  const end = async (memoryLimit: string): Promise<void> => {
    // The checkpoint below, the next job and the service start without this job's garbage: V8 keeps
    // the heap a job grew until a full collection, which a busy process may not run for a long time.
    collectGarbage();
    const detail = JSON.stringify({ message, results });
    try {
      await ctx.store.write((conn) => runScript(conn, 'queries/jobs/record-run-end', { run_id: runId, status, detail }));
    } catch (err) {
      unrecorded = err;
      return;
    } finally {
      ended = true;
    }
    // What the job wrote goes into the file now, not when the log next fills: until then DuckDB holds it in
    // memory. Still with the job's settings: its own (dbSettings) say how what it wrote is best checkpointed.
    await releaseBuffers(ctx.store, memoryLimit);
    // A checkpoint that fails (the job's memory limit too small for it) leaves what the job wrote in the log, for a
    // later checkpoint; if DuckDB invalidated the store for it, the store attaches itself again first (see Store).
    await ctx.store.checkpoint().catch((err: unknown) => log.warn({ err }, 'checkpoint after the job failed; what the job wrote stays in the write-ahead log until a later checkpoint'));
  };
  try {
    const during = { checkpoint_threshold: JOB_CHECKPOINT_THRESHOLD, memory_limit: ctx.config.AFFORD_JOBS_DB_MEMORY_LIMIT };
    const after = { checkpoint_threshold: ctx.config.AFFORD_DB_CHECKPOINT_THRESHOLD, memory_limit: ctx.config.AFFORD_DB_MEMORY_LIMIT };
    const body = async (): Promise<void> => {
      await runVerdict();
      await end(ctx.config.AFFORD_JOBS_DB_MEMORY_LIMIT);
    };
    await withDbSettings(ctx.store, during, after, () => (job.dbSettings ? withDbSettingsRestored(ctx.store, job.dbSettings, body) : body()));
  } catch (err) {
    // The settings could not be set: the job did not run, and the store's settings are back.
    status = 'failed';
    message = (err as Error).message;
    log.error({ err }, 'job failed');
  }
  if (!ended) await end(ctx.config.AFFORD_DB_MEMORY_LIMIT);
  if (unrecorded) throw unrecorded;
  log.info({ status, message, ms: Date.now() - started }, 'job finished');
  return { runId, job: job.name, status, message, results, ms: Date.now() - started };
}
