import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import { OP_ACCOUNTS_GET } from '../schemas/accounts.schemas.js';
import { OP_AFFORDABILITY_REPORT_GET } from '../schemas/affordability.schemas.js';
import { OP_BUCKET_TOTALS_GET } from '../schemas/bucket-totals.schemas.js';
import { OP_CATEGORY_TOTALS_GET } from '../schemas/category-totals.schemas.js';
import { OP_TRANSACTIONS_GET } from '../schemas/transactions.schemas.js';
import type { CacheScope, ReadCache } from './read-cache.js';

/**
 * The customer reads whose answers are made only of that customer's data, the
 * client's bucket definitions and the day: every write to those announces
 * itself (db/data-changes), so their answers can be kept. Refresh tasks,
 * applications and the rest are read each time.
 */
const CACHED_OPERATIONS: ReadonlySet<string> = new Set([
  OP_BUCKET_TOTALS_GET,
  OP_TRANSACTIONS_GET,
  OP_AFFORDABILITY_REPORT_GET,
  OP_CATEGORY_TOTALS_GET,
  OP_ACCOUNTS_GET,
]);

/** Headers a cached answer sets itself, or that Fastify computes per response. */
const NOT_REPLAYED = new Set(['content-type', 'content-length']);
const JSON_TYPE = 'application/json; charset=utf-8';

export interface CachedRead {
  /** The answer's bytes, already sent as-is; or undefined: run the handler, then hand its result to `keep`. */
  hit: Buffer | undefined;
  /** Returns what to send: the result's JSON bytes (kept when nothing changed meanwhile), or the result itself when it is not JSON. */
  keep: (result: unknown) => unknown;
}

/**
 * Everything an answer depends on goes into its key: the operation, the
 * customer, the URL (its path and query are all a handler reads, so any
 * filter a route adds is covered; only successful answers are kept, so an
 * invalid query never matches), the Accept header (the report is JSON or PDF
 * by it) and the day (the default ranges move with it).
 */
function answerKey(operationId: string, scope: CacheScope, url: string, accept: string | undefined, day: string): string {
  // No Accept header means */* (RFC 9110), so the two share their answers.
  return `${operationId} ${day} ${JSON.stringify([scope.clientId, scope.customerId, url, accept ?? '*/*'])}`;
}

/**
 * The read cache as the router uses it: undefined for an operation that is
 * not cached, or when the cache is off. A hit replays the bytes and headers
 * of the first answer exactly (same JSON as Fastify's own serialisation).
 */
export function cachedRead(cache: ReadCache, clock: Clock, operationId: string, request: FastifyRequest, reply: FastifyReply): CachedRead | undefined {
  const auth = request.auth;
  if (!cache.enabled || !CACHED_OPERATIONS.has(operationId) || !auth?.customerId) return undefined;
  const scope: CacheScope = { clientId: auth.clientId, customerId: auth.customerId };
  const key = answerKey(operationId, scope, request.url, request.headers.accept, clock().toISOString().slice(0, 10));
  const hit = cache.answer(key);
  if (hit) {
    for (const [name, value] of hit.headers) reply.header(name, value);
    reply.header('content-type', JSON_TYPE);
    return { hit: hit.body, keep: (r) => r };
  }
  const readFrom = cache.begin();
  return {
    hit: undefined,
    keep: (result) => {
      // A PDF (a Buffer) or a handler that chose its own content type is sent as it is, and not kept.
      if (Buffer.isBuffer(result) || typeof result !== 'object' || result === null || reply.hasHeader('content-type')) return result;
      const body = Buffer.from(JSON.stringify(result));
      const headers = Object.entries(reply.getHeaders())
        .filter(([name, value]) => !NOT_REPLAYED.has(name) && value !== undefined)
        .map(([name, value]) => [name, String(value)] as const);
      cache.keepAnswer(key, scope, readFrom, { body, headers });
      reply.header('content-type', JSON_TYPE);
      return body;
    },
  };
}
