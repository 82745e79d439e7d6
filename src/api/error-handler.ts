import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCode } from '../domain/errors.js';
import { ACCEPTED_CODINGS, isDecodingError } from './content-encoding.js';
import { ApiError, apiError, errorBody, validationError } from './errors.js';

/** Turns what Fastify itself throws (body parsing, limits) into our coded errors. */
function fromFastify(err: FastifyError): ApiError | undefined {
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return apiError('UNSUPPORTED_MEDIA_TYPE');
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return apiError('PAYLOAD_TOO_LARGE');
  if (isDecodingError(err)) return validationError({ body: 'could not be decompressed as its Content-Encoding says' });
  if (err.statusCode === 400) return validationError({ body: err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'is required' : 'must be valid JSON' });
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) return validationError({ request: 'is malformed' });
  return undefined;
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  switch (errorCode(err)) {
    // The store was closed under the request: the service is stopping.
    case 'STORE_CLOSED':
      return apiError('UNAVAILABLE');
    default:
      return fromFastify(err as FastifyError) ?? apiError('INTERNAL');
  }
}

/**
 * Every error leaves as the interface's body. A 4xx names its operation; a 5xx
 * carries only its message, and the cause (stack included) goes to the log,
 * never to the client.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiErr = toApiError(err);
    const operationId = request.routeOptions.config.operationId ?? 'unknown';
    // A 503 is a deliberate answer (starting up, stopping), not a fault: no stack.
    if (apiErr.code === 'UNAVAILABLE') request.log.warn({ operation_id: operationId, status: apiErr.status }, 'service unavailable');
    else if (apiErr.status >= 500) request.log.error({ err, operation_id: operationId }, 'request failed');
    else request.log.info({ operation_id: operationId, status: apiErr.status, code_id: apiErr.codeId, errors: apiErr.detail.errors }, 'request rejected');
    // Thrown by a handler only for read-only resources (core-dashboard): reading is all they allow.
    if (apiErr.code === 'METHOD_NOT_ALLOWED') reply.header('allow', 'GET');
    if (apiErr.detail.retryAfterSeconds !== undefined) reply.header('retry-after', String(apiErr.detail.retryAfterSeconds));
    if (apiErr.code === 'UNSUPPORTED_CONTENT_ENCODING') reply.header('accept-encoding', ACCEPTED_CODINGS);
    return reply.code(apiErr.status).send(errorBody(apiErr, operationId));
  });
}
