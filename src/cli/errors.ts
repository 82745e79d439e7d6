import { InvalidArgumentError } from 'commander';
import { errorCode, type ErrorCode } from '../domain/errors.js';

/** Mistakes of the person at the command line or in the settings: shown as one line, never with a stack. */
const ONE_LINE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'CONFIG_INVALID', 'KAFKA_BROKERS_MISSING', 'KAFKA_SASL_INCOMPLETE', 'CLI_FAILED', 'PATH_NUL',
  'CLIENT_STATE_NEEDS_TOKEN_SECRET', 'CLIENT_STATE_NEEDS_SERVICE', 'MIGRATION_FAILED', 'STORE_NOT_AFFORD', 'STORE_NEWER',
  'INPUT_COMPRESSION_UNREADABLE', 'INPUT_DECOMPRESS_FAILED',
]);

/** For commander options: a whole number of at least 1. */
/** The most rows a listing command prints at once. */
export const MAX_LIST_LIMIT = 100_000;

/** A --limit: a whole number from 1 to MAX_LIST_LIMIT. */
export function listLimit(value: string): number {
  const n = positiveInt(value);
  if (n > MAX_LIST_LIMIT) throw new InvalidArgumentError(`It must be at most ${MAX_LIST_LIMIT.toLocaleString('en-GB')}.`);
  return n;
}

/** The most rows one batch may hold, as AFFORD_INGEST_BATCH_ROWS allows. */
export const MAX_BATCH_ROWS = 1_000_000;

/** An --batch: a whole number from 1 to MAX_BATCH_ROWS, as the setting it stands in for. */
export function batchRowsOption(value: string): number {
  const n = positiveInt(value);
  if (n > MAX_BATCH_ROWS) throw new InvalidArgumentError(`It must be at most ${MAX_BATCH_ROWS.toLocaleString('en-GB')}, as AFFORD_INGEST_BATCH_ROWS.`);
  return n;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('It must be a whole number of at least 1.');
  return n;
}

interface SystemError extends Error {
  code?: unknown;
  port?: unknown;
  address?: unknown;
}

/**
 * The one line to show for an error that ends a command, or undefined for a
 * bug, whose stack is worth showing. Errors of the operating system (a file
 * that is missing or unwritable, a port in use) are ordinary mistakes.
 */
export function oneLineMessage(err: unknown): string | undefined {
  const code = errorCode(err);
  if (code !== undefined && ONE_LINE.has(code)) return (err as Error).message;
  if (!(err instanceof Error)) return undefined;
  const e = err as SystemError;
  if (e.code === 'EADDRINUSE') {
    const where = typeof e.port === 'number' ? `port ${String(e.port)}${typeof e.address === 'string' ? ` on ${e.address}` : ''}` : 'the port';
    return `afford: ${where} is already in use by another process; set AFFORD_PORT to a free port (or AFFORD_HOST to another address)`;
  }
  if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return `afford: ${e.message}`;
  return undefined;
}
