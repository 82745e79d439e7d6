import { affordError } from '../src/domain/errors.js';
import type { Config } from '../src/config.js';
import type { Store } from '../src/db/store.js';
import type { Logger } from '../src/logger.js';
import type { DbSettings } from '../src/db/db-settings.js';

export interface JobContext {
  store: Store;
  config: Config;
  logger: Logger;
  /** Called as work advances, when the job can tell. */
  progress?: (done: number, total: number) => void;
  /**
   * Aborted when whoever asked for the run went away (Ctrl-C on a command
   * the service runs for its caller), or the service stops (its reason
   * then says so): the run stops at its next safe point, between steps,
   * chunks of customers or files of the export, and is recorded as failed.
   */
  signal?: AbortSignal;
}

/**
 * A step is a file under sql/jobs/ run in one write transaction, or code for
 * what SQL alone cannot do (files, PDFs). A step's result is recorded with the run.
 */
export type JobStep =
  | { name: string; sql: string }
  | { name: string; run: (ctx: JobContext) => Promise<Record<string, unknown>> };

export interface Job {
  name: string;
  description: string;
  /** A cron expression (UTC), or 'nightly' to run in the nightly batch at AFFORD_NIGHTLY_CRON. */
  schedule: string;
  steps: JobStep[];
  /**
   * The job scans whole tables: DuckDB runs its queries on every core while
   * it runs (the instance's threads, AFFORD_DB_THREADS, suit the small
   * queries of ingest and reads), and gets its own number back afterwards.
   */
  everyCore?: boolean;
  /**
   * DuckDB settings the job runs with, and the checkpoint after it, beyond
   * the memory limit and checkpoint threshold every job gets; each is set
   * back to what it was when the job ends.
   */
  dbSettings?: DbSettings;
  /** Turns the steps' results into the run's status: a job can fail on what it found. */
  verdict?: (results: Record<string, Record<string, unknown>>) => { ok: boolean; message: string };
}

/**
 * Throws JOB_STOPPED once the run is asked to stop (JobContext.signal):
 * `where` says at which point, the signal's reason (a text) why; without
 * one, whoever asked for the run went away.
 */
export function stopIfAsked(ctx: JobContext, where: string): void {
  const signal = ctx.signal;
  if (!signal?.aborted) return;
  throw affordError('JOB_STOPPED', where, typeof signal.reason === 'string' ? signal.reason : 'whoever asked for the run went away (Ctrl-C)');
}
