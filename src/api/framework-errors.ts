import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../logger.js';
import { MAX_ID_LENGTH } from './limits.js';
import { apiError, ERROR_TABLE, errorBody, validationError, type ErrorName } from './errors.js';

/**
 * What Fastify answers before any route is found: a path that is not valid
 * percent-encoding, or a path segment too long to name anything. Both get the
 * interface's 400 body instead of Fastify's, which names its internal codes.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiErr = err.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? validationError({ path: `a path segment must be at most ${MAX_ID_LENGTH} characters` })
    : validationError({ path: 'must be valid percent-encoding' });
  request.log.info({ status: apiErr.status, code_id: apiErr.codeId, reason: err.code }, 'request rejected');
  void reply.code(apiErr.status).send(errorBody(apiErr, 'unknown'));
}

/** The error Node's parser meant, from its error code (HPE_*). */
function errorOf(code: string | undefined): ErrorName {
  if (code === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'MALFORMED_HTTP';
}

/** A raw HTTP/1.1 response carrying the interface's error body, for a request that never reached Fastify. */
export function rawErrorResponse(name: ErrorName): string {
  const { status } = ERROR_TABLE[name];
  const body = JSON.stringify(errorBody(apiError(name), 'unknown'));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Requests Node's HTTP parser refuses (malformed lines, headers over its
 * limit, bad chunking) never reach Fastify: answer them here with the error
 * body and close. Only the parser's code is logged: its raw packet holds the
 * request's headers, credentials included.
 */
export function clientErrorHandler(logger: Logger): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const name = errorOf(err.code);
    logger.info({ status: ERROR_TABLE[name].status, reason: err.code }, 'malformed request rejected');
    if (socket.writable) socket.end(rawErrorResponse(name));
    else socket.destroy();
  };
}

/**
 * Two requests Node's HTTP server answers by itself, outside Fastify: an
 * `Expect` other than 100-continue got a bare 417 with an empty body, and a
 * CONNECT (a proxy's tunnel, which afford is not) had its connection closed
 * with no answer at all. Both get the interface's error body now.
 */
export function installServerEdges(server: Server, logger: Logger): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const { status } = ERROR_TABLE.EXPECTATION_FAILED;
    logger.info({ status, method: request.method }, 'request rejected: an expectation afford does not meet');
    const body = JSON.stringify(errorBody(apiError('EXPECTATION_FAILED'), 'unknown'));
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', connection: 'close' });
    response.end(body);
  });
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    logger.info({ status: ERROR_TABLE.METHOD_NOT_ALLOWED.status, method: 'CONNECT' }, 'request rejected: afford is no proxy');
    if (socket.writable) socket.end(rawErrorResponse('METHOD_NOT_ALLOWED'));
    else socket.destroy();
  });
}
