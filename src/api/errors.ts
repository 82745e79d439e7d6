import { MAX_FIELD_ERRORS } from './limits.js';

/**
 * Every coded error of the API, defined once: name -> (status, code_id,
 * message). Code throws them by name (`throw apiError('NOT_FOUND')`), and the
 * error handler turns them into the interface's bodies. The 401, 404 and 405
 * bodies are the interface's generic ones, word for word.
 */
export const ERROR_TABLE = {
  UNAUTHORISED: { status: 401, codeId: 'unknown', message: 'Unauthorised request', generic: true },
  NOT_FOUND: { status: 404, codeId: 'unknown', message: 'Route or resource not found', generic: true },
  METHOD_NOT_ALLOWED: { status: 405, codeId: 'unknown', message: 'Method not allowed', generic: true },
  FAILED_VALIDATION: { status: 400, codeId: 'failed_validation', message: 'The request is invalid: see errors for each field', generic: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, codeId: 'request_validation', message: 'The request body must be JSON or form-encoded', generic: false },
  PAYLOAD_TOO_LARGE: { status: 413, codeId: 'request_validation', message: 'The request body is too large', generic: false },
  UNIQUE_CONSTRAINT: { status: 409, codeId: 'unique_constraint', message: 'The record already exists', generic: false },
  ACCOUNT_NOT_FOUND: { status: 404, codeId: 'account_not_found', message: 'The account does not exist. It may be closed or suspended.', generic: false },
  TASK_NOT_FOUND: { status: 404, codeId: 'task_not_found', message: 'The task does not exist', generic: false },
  INTERNAL: { status: 500, codeId: 'internal_error', message: 'An error occurred while processing your request', generic: false },
  UNAVAILABLE: { status: 503, codeId: 'internal_transient_error', message: 'Service unavailable', generic: false },
} as const;

export type ErrorName = keyof typeof ERROR_TABLE;

export interface ApiErrorDetail {
  /** Field path -> message, for validation failures. */
  errors?: Record<string, string>;
  metadata?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly codeId: string;
  constructor(
    readonly errorName: ErrorName,
    readonly detail: ApiErrorDetail = {},
  ) {
    const def = ERROR_TABLE[errorName];
    super(def.message);
    this.name = `ApiError(${errorName})`;
    this.status = def.status;
    this.codeId = def.codeId;
  }
}

export function apiError(name: ErrorName, detail: ApiErrorDetail = {}): ApiError {
  return new ApiError(name, detail);
}

/** The key under which a capped error list says how many fields it left out. */
export const MORE_ERRORS_KEY = '_more';

/**
 * At most MAX_FIELD_ERRORS fields, then one note of how many more: a body of
 * 200,000 bad items gives a short answer (and a short log line), not megabytes.
 */
export function capErrors(errors: Record<string, string>): Record<string, string> {
  const keys = Object.keys(errors);
  if (keys.length <= MAX_FIELD_ERRORS) return errors;
  const kept: Record<string, string> = {};
  for (const key of keys.slice(0, MAX_FIELD_ERRORS)) kept[key] = errors[key] as string;
  kept[MORE_ERRORS_KEY] = `${keys.length - MAX_FIELD_ERRORS} more fields are invalid and not listed`;
  return kept;
}

export function validationError(errors: Record<string, string>): ApiError {
  return new ApiError('FAILED_VALIDATION', { errors: capErrors(errors) });
}

/** The error body of a 4xx, in the interface's format. */
export interface ClientErrorBody {
  operation_id: string;
  code_id: string;
  message: string;
  metadata?: Record<string, unknown>;
  errors: Record<string, string>;
}

/** Server errors carry only a message: no code, no stack, no SQL. */
export interface ServerErrorBody {
  message: string;
}

export function errorBody(err: ApiError, operationId: string): ClientErrorBody | ServerErrorBody {
  const def = ERROR_TABLE[err.errorName];
  if (def.status >= 500) return { message: def.message };
  if (def.generic) return { operation_id: 'unknown', code_id: def.codeId, message: def.message, errors: {} };
  return {
    operation_id: operationId,
    code_id: def.codeId,
    message: def.message,
    metadata: err.detail.metadata ?? {},
    errors: err.detail.errors ?? {},
  };
}
