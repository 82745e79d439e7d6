import { format } from 'node:util';

/**
 * Every error afford throws on purpose, defined once: its code, its message
 * (`%s` marks a value the throw fills in) and, where it has one, its HTTP
 * status. Code throws by code (`throw affordError('STORE_CLOSED')`) and tells
 * errors apart by code (`errorCode(err) === 'STORE_CLOSED'`), never by their
 * message, which may be reworded at any time. The API's table
 * (src/api/errors.ts) adds the interface's code_id to the codes with a status.
 */
export const ERRORS = {
  // The API's answers; their status and message are what a client sees.
  UNAUTHORISED: { status: 401, message: 'Unauthorised request' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many failed attempts: try again later' },
  NOT_FOUND: { status: 404, message: 'Route or resource not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  FAILED_VALIDATION: { status: 400, message: 'The request is invalid: see errors for each field' },
  MALFORMED_HTTP: { status: 400, message: 'The request is not valid HTTP' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  EXPECTATION_FAILED: { status: 417, message: 'The only expectation afford meets is Expect: 100-continue' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON (or a type the call names), form-encoded or plain text' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_CONTENT_ENCODING: { status: 415, message: "The request body's Content-Encoding must be gzip, deflate, br or identity" },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'The account does not exist. It may be closed or suspended.' },
  TASK_NOT_FOUND: { status: 404, message: 'The task does not exist' },
  INTERNAL: { status: 500, message: 'An error occurred while processing your request' },
  UNAVAILABLE: { status: 503, message: 'Service unavailable' },

  // The store.
  STORE_CLOSED: { message: 'the store is closed' },
  DATABASE_BUSY: { message: '%s is held by another process' },
  MIGRATION_FAILED: { message: 'migration %s failed: %s' },
  STORE_NOT_AFFORD: { message: 'AFFORD_DB %s holds tables but is not an afford store (no record of afford\'s migrations): afford makes its own store; point AFFORD_DB at a new file' },
  STORE_NEWER: { message: 'AFFORD_DB %s was written by a newer afford (its schema is at version %s, this afford knows up to %s): run that version' },
  ROWS_MISMATCH: { message: 'the rows of %s do not have the expected columns: %s' },

  // Settings and the command line: a person's mistake, shown as one line.
  CONFIG_INVALID: { message: 'invalid configuration:\n  %s' },
  KAFKA_BROKERS_MISSING: { message: 'AFFORD_KAFKA_BROKERS is not set: no Kafka brokers to connect to' },
  KAFKA_SASL_INCOMPLETE: { message: 'AFFORD_KAFKA_SASL_MECHANISM is set: AFFORD_KAFKA_SASL_USERNAME and AFFORD_KAFKA_SASL_PASSWORD are required' },
  CLI_FAILED: { message: '%s' },
  CLIENT_EXISTS: { message: "client '%s' already exists" },
  CLIENT_ID_INVALID: { message: "client id '%s' must be letters, digits, '.', '_' or '-'" },
  CLIENT_NAME_EMPTY: { message: 'name must not be empty' },
  SUBSCRIPTION_INVALID: { message: '%s' },
  GENERATE_OPTION_INVALID: { message: '%s must be %s' },
  PATH_NUL: { message: 'a file path cannot contain a NUL character' },

  // Ingest.
  TRIAL_ROLLBACK: { message: 'trial write rolled back' },
  INGEST_UNACCOUNTED: { message: 'a batch of %s events accounts for %s of them (inserted, updated, deleted, unchanged or dead letters): it is not committed' },
  DLQ_PUBLISH_FAILED: { message: 'could not publish dead letters to %s: %s' },
  NO_PRODUCE_TOPICS: { message: 'no topics to produce to' },
  INPUT_COMPRESSION_UNREADABLE: { message: 'the input is compressed with %s, which afford does not read: decompress it first (gzip and ZStandard are read as they are)' },
  INPUT_DECOMPRESS_FAILED: { message: 'the %s-compressed input cannot be read on (%s): what was read before it stands' },

  // Client-level state carried by Kafka to every shard.
  CLIENT_STATE_NEEDS_TOKEN_SECRET: { message: 'AFFORD_CLIENT_STATE_TOPIC is set: every shard must sign tokens with the same AFFORD_TOKEN_SECRET' },
  CLIENT_STATE_NEEDS_SERVICE: { message: 'AFFORD_CLIENT_STATE_TOPIC is set: client-level changes go through the running service (run afford serve first)' },
  CLIENT_STATE_BEHIND: { message: 'client-level state was not applied up to the end of %s within %s ms' },
  CLIENT_STATE_INVALID: { message: 'client-state message %s is invalid: %s' },
  CLIENT_STATE_CONFLICT: { message: '%s was changed at the same moment through another shard, and that change stands: run the command again' },

  // Records that must exist right after they were written: their absence is a bug.
  RECORD_NOT_STORED: { message: '%s %s was not stored' },
  REFRESH_TASK_VANISHED: { message: 'refresh task %s vanished' },
  SIGNING_KEY_MISSING: { message: 'no %s signing key after creating one' },
  WEBHOOK_KEY_NOT_EC: { message: 'webhook signing key is not an EC key' },

  // Jobs.
  JOB_STOPPED: { message: 'stopped %s: %s' },

  // Reports.
  REPORT_ROWS_INCOMPLETE: { message: '%s' },
  FIGURE_SOURCE_MISSING: { message: 'no source for figure %s' },
  FONT_NOT_FOUND: { message: 'font %s not found in %s: install the fonts-dejavu-core package' },
  PDF_POOL_SIZE: { message: 'a PDF worker pool needs a whole number of workers from 1, not %s' },
  PDF_POOL_CLOSED: { message: 'the PDF worker pool is closed' },
  PDF_RENDER_FAILED: { message: 'rendering a PDF failed: %s' },
  PDF_WORKER_EXITED: { message: 'a PDF worker stopped (exit code %s)' },

  // Arguments a caller in the code got wrong.
  INVALID_ARGUMENT: { message: '%s' },
  UNKNOWN_TAXONOMY_PAIR: { message: "generator uses an unknown uk-v2 pair '%s'" },
} as const satisfies Record<string, { message: string; status?: number }>;

export type ErrorCode = keyof typeof ERRORS;

/** An error of the catalogue: `code` says which, `status` is its HTTP status where it has one. */
export class AffordError extends Error {
  override readonly name = 'AffordError';
  readonly status: number | undefined;

  constructor(
    readonly code: ErrorCode,
    args: readonly unknown[] = [],
    options?: ErrorOptions,
  ) {
    const def: { message: string; status?: number } = ERRORS[code];
    super(args.length ? format(def.message, ...args) : def.message, options);
    this.status = def.status;
  }
}

/** `throw affordError('DATABASE_BUSY', path)`: the code's message with `%s` filled in from `args`, in order. */
export function affordError(code: ErrorCode, ...args: unknown[]): AffordError {
  return new AffordError(code, args);
}

/** The same, keeping the error that caused it (shown in logs and stacks). */
export function affordErrorCausedBy(cause: unknown, code: ErrorCode, ...args: unknown[]): AffordError {
  return new AffordError(code, args, { cause });
}

/** The catalogue's code of `err`, or undefined for any other error: switch on this, never on a message. */
export function errorCode(err: unknown): ErrorCode | undefined {
  return err instanceof AffordError ? err.code : undefined;
}
