import { AffordError, ERRORS, type ErrorCode } from '../domain/errors.js';
import { MAX_FIELD_ERRORS } from './limits.js';

/**
 * The API's errors: the catalogue's codes that have an HTTP status, each with
 * the interface's code_id. Code throws them by name (`throw
 * apiError('NOT_FOUND')`), and the error handler turns them into the
 * interface's bodies. The 401, 404 and 405 bodies are the interface's generic
 * ones, word for word; a 5xx body carries only the message.
 */
const API_CODE_IDS = {
  UNAUTHORISED: { codeId: 'unknown', generic: true },
  TOO_MANY_ATTEMPTS: { codeId: 'too_many_requests', generic: true },
  NOT_FOUND: { codeId: 'unknown', generic: true },
  METHOD_NOT_ALLOWED: { codeId: 'unknown', generic: true },
  FAILED_VALIDATION: { codeId: 'failed_validation', generic: false },
  MALFORMED_HTTP: { codeId: 'request_validation', generic: true },
  REQUEST_TIMEOUT: { codeId: 'request_validation', generic: true },
  HEADERS_TOO_LARGE: { codeId: 'request_validation', generic: true },
  EXPECTATION_FAILED: { codeId: 'request_validation', generic: true },
  UNSUPPORTED_MEDIA_TYPE: { codeId: 'request_validation', generic: false },
  PAYLOAD_TOO_LARGE: { codeId: 'request_validation', generic: false },
  UNSUPPORTED_CONTENT_ENCODING: { codeId: 'request_validation', generic: false },
  ACCOUNT_NOT_FOUND: { codeId: 'account_not_found', generic: false },
  TASK_NOT_FOUND: { codeId: 'task_not_found', generic: false },
  INTERNAL: { codeId: 'internal_error', generic: false },
  UNAVAILABLE: { codeId: 'internal_transient_error', generic: false },
} as const satisfies Partial<Record<ErrorCode, { codeId: string; generic: boolean }>>;

export type ErrorName = keyof typeof API_CODE_IDS;

export interface ApiErrorDef {
  status: number;
  codeId: string;
  message: string;
  /** The interface's generic body: operation_id 'unknown' and no metadata. */
  generic: boolean;
}

/** Every error the API answers with: status and message from the catalogue, code_id from the interface. */
export const ERROR_TABLE = Object.fromEntries(
  (Object.keys(API_CODE_IDS) as ErrorName[]).map((name) => [name, { ...ERRORS[name], ...API_CODE_IDS[name] }]),
) as Record<ErrorName, ApiErrorDef>;

export interface ApiErrorDetail {
  /** Field path -> message, for validation failures. */
  errors?: Record<string, string>;
  metadata?: Record<string, unknown>;
  /** Sent as Retry-After: seconds until the call may succeed. */
  retryAfterSeconds?: number;
}

/** A catalogue error the API answers with; `code` is one of the API's names. */
export class ApiError extends AffordError {
  declare readonly code: ErrorName;
  override readonly status: number;
  readonly codeId: string;
  constructor(
    code: ErrorName,
    readonly detail: ApiErrorDetail = {},
  ) {
    super(code);
    this.status = ERROR_TABLE[code].status;
    this.codeId = ERROR_TABLE[code].codeId;
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
  const def = ERROR_TABLE[err.code];
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
