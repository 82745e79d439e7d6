import { AsyncLocalStorage } from 'node:async_hooks';
import { loadConfig, storeOptions, type Config } from '../config.js';
import { buildPipeline } from '../app/pipeline.js';
import { Store } from '../db/store.js';
import { setClientStateWriter } from '../db/client-state.js';
import { affordError } from '../domain/errors.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import { createLogger, type Logger } from '../logger.js';

export interface CliContext {
  config: Config;
  logger: Logger;
}

/**
 * Set when a command runs inside `afford serve`, forwarded over the admin
 * socket because the service holds the DuckDB file: the command then uses the
 * service's store and its output goes back to the caller.
 */
export interface ServiceScope extends CliContext {
  store: Store;
  /** The service's own pipeline: what a forwarded command ingests goes out with the service's webhook wake-ups. */
  pipeline: IngestPipeline;
  output: string[];
  errors: string[];
  exitCode: number;
  /** Aborted when the caller goes away (Ctrl-C) before its answer: a long command stops at its next safe point. */
  signal?: AbortSignal;
}

export const serviceScope = new AsyncLocalStorage<ServiceScope>();


export function cliContext(): CliContext {
  const scope = serviceScope.getStore();
  if (scope) return { config: scope.config, logger: scope.logger };
  const config = loadConfig();
  return { config, logger: createLogger(config.AFFORD_LOG_LEVEL) };
}

/** Command output: standard output, or the caller's buffer when run inside the service. */
export function out(text: string): void {
  const scope = serviceScope.getStore();
  if (scope) scope.output.push(text);
  else process.stdout.write(text);
}

/**
 * Command output that may be large: written as it comes, waiting while
 * standard output is full (a slow reader, a pipe), so that it is never held
 * whole in memory; inside the service it joins the caller's buffer.
 */
export async function outStreamed(text: string): Promise<void> {
  const scope = serviceScope.getStore();
  if (scope) {
    scope.output.push(text);
    return;
  }
  if (process.stdout.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.stdout.off('drain', done);
      process.stdout.off('close', done);
      resolve();
    };
    process.stdout.on('drain', done);
    process.stdout.on('close', done);
  });
}

/** Messages for people: standard error, or the caller's standard error when run inside the service. */
export function errOut(text: string): void {
  const scope = serviceScope.getStore();
  if (scope) scope.errors.push(text);
  else process.stderr.write(text);
}

export function setExitCode(code: number): void {
  const scope = serviceScope.getStore();
  if (scope) scope.exitCode = code;
  else process.exitCode = code;
}

/**
 * Opens the store for a one-off command and closes it afterwards, whatever
 * happens. Inside the service it lends the service's own store instead.
 */
export async function withStore<T>(ctx: CliContext, fn: (store: Store) => Promise<T>): Promise<T> {
  const scope = serviceScope.getStore();
  if (scope) return fn(scope.store);
  const store = await Store.open(ctx.config.AFFORD_DB, ctx.logger, storeOptions(ctx.config));
  // With several shards, a client-level change written here would reach this file only: refuse it.
  if (ctx.config.AFFORD_CLIENT_STATE_TOPIC) {
    setClientStateWriter(store, {
      write: () => Promise.reject(affordError('CLIENT_STATE_NEEDS_SERVICE')),
      caughtUp: () => Promise.reject(affordError('CLIENT_STATE_NEEDS_SERVICE')),
    });
  }
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/**
 * A pipeline for a command that writes events: inside the service, the
 * service's own; otherwise one built by the composition root over a store
 * opened for the command. Either way it carries the webhook hooks.
 */
export async function withPipeline<T>(ctx: CliContext, fn: (pipeline: IngestPipeline) => Promise<T>): Promise<T> {
  const scope = serviceScope.getStore();
  if (scope) return fn(scope.pipeline);
  return withStore(ctx, (store) => fn(buildPipeline(store, ctx.logger)));
}

/** Writes a progress line in place on a terminal; prints nothing when not on one. */
export function terminalProgress(label: string): ((done: number, total: number, extra?: string) => void) & { end: () => void } {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  const update = (done: number, total: number, extra = ''): void => {
    if (!tty) return;
    const now = Date.now();
    if (now - last < 100 && done < total) return;
    last = now;
    const width = 30;
    const ratio = total > 0 ? Math.min(done / total, 1) : 0;
    const filled = Math.round(ratio * width);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
    const counts = total > 0 ? `${Math.round(ratio * 100)}% ${done}/${total}` : `${done}`;
    process.stderr.write(`\r${label} [${bar}] ${counts} ${extra}`.padEnd(100).slice(0, 120));
  };
  return Object.assign(update, { end: () => tty && process.stderr.write('\n') });
}
