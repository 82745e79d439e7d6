import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { Authenticator } from './auth/authenticate.js';
import type { AuthContext, AuthLevel } from './auth/context.js';
import { cachedRead, type CachedRead } from './cache/cached-reads.js';
import type { ReadCache } from './cache/read-cache.js';
import type { Clock } from '../domain/clock.js';
import { bodyLimitFor } from './limits.js';
import { parseOrThrow } from './validation.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The interface's operation_id, also used in validation error bodies. */
    operationId?: string;
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<P extends Schema, Q extends Schema, B extends Schema> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  auth: AuthContext | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<P extends Schema, Q extends Schema, B extends Schema, R extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify form: /aggregations/v2/buckets/:bucket_id */
  url: string;
  operationId: string;
  summary: string;
  tag: string;
  auth: AuthLevel;
  params?: P;
  query?: Q;
  body?: B;
  /** Documents the success body, and types what the handler may return (z.undefined() with successStatus 204). */
  response: R;
  successStatus?: number;
  /** Content types other than JSON (the OpenAPI document only). */
  bodyContentType?: string;
  /** Further content types of the body, each read with its own schema into the same shape as `body`. */
  bodies?: Record<string, z.ZodType<Out<B>>>;
  /** Runs on the parsed path parameters before the query and body are checked (e.g. read-only resources). */
  guard?: (params: Out<P>) => void;
  handler: (input: HandlerInput<P, Q, B>) => Promise<z.input<R>>;
}

/** What the OpenAPI document is built from. */
export interface RouteDoc {
  method: string;
  url: string;
  operationId: string;
  summary: string;
  tag: string;
  auth: AuthLevel;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyContentType?: string;
  bodies?: Record<string, z.ZodType>;
  response: z.ZodType;
  successStatus: number;
}

/**
 * Registers routes with their operation_id, auth level and zod schemas. Auth
 * runs first (onRequest, before the body is read), then the inputs are parsed,
 * so a request without credentials gets 401 whatever its body.
 */
export class Router {
  readonly docs: RouteDoc[] = [];
  /** Reads whose answer was not kept: the handler's result is, once it is known. */
  private readonly pendingReads = new WeakMap<FastifyRequest, CachedRead>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly authenticate: Authenticator,
    /** Customer reads' answers, kept until a write changes them (cache/read-cache.ts); none in a router without it. */
    private readonly reads?: { cache: ReadCache; clock: Clock },
  ) {}

  add<P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined, R extends z.ZodType = z.ZodType>(
    spec: RouteSpec<P, Q, B, R>,
  ): void {
    const successStatus = spec.successStatus ?? 200;
    this.docs.push({
      method: spec.method,
      url: spec.url,
      operationId: spec.operationId,
      summary: spec.summary,
      tag: spec.tag,
      auth: spec.auth,
      params: spec.params,
      query: spec.query,
      body: spec.body,
      bodyContentType: spec.bodyContentType,
      bodies: spec.bodies,
      response: spec.response,
      successStatus,
    });
    const parse = <S extends Schema>(schema: S, input: unknown, root: string): Out<S> =>
      (schema ? parseOrThrow(schema, input, root) : undefined) as Out<S>;
    this.app.route({
      method: spec.method as HTTPMethods,
      url: spec.url,
      bodyLimit: bodyLimitFor(spec.operationId),
      config: { operationId: spec.operationId, auth: spec.auth },
      onRequest: async (request, reply) => {
        request.auth = await this.authenticate(request, spec.auth);
        // Every later line of this request names whom it concerns (never a credential).
        if (request.auth) {
          request.log = request.log.child({ client_id: request.auth.clientId, customer_id: request.auth.customerId });
          reply.log = request.log;
        }
        // A kept answer goes out at once, before the inputs are parsed again: it is keyed by the raw URL they came from.
        const cached = this.reads && cachedRead(this.reads.cache, this.reads.clock, spec.operationId, request, reply);
        if (cached?.hit) return reply.code(successStatus).send(cached.hit);
        if (cached) this.pendingReads.set(request, cached);
        return undefined;
      },
      handler: async (request, reply) => {
        const params = parse<P>(spec.params as P, request.params, 'params');
        spec.guard?.(params);
        const input: HandlerInput<P, Q, B> = {
          params,
          query: parse<Q>(spec.query as Q, request.query ?? {}, 'query'),
          body: parse<B>(bodySchemaFor(spec, request) as B, request.body, 'body'),
          auth: request.auth,
          request,
          reply,
        };
        const cached = this.pendingReads.get(request);
        const result = await spec.handler(input);
        // 204 No Content: the reference's answer to a replace or a delete, with no body at all.
        if (successStatus === 204) return reply.code(204).send();
        reply.code(successStatus);
        return cached ? cached.keep(result) : result;
      },
    });
  }
}

/** The schema of a request's body: the one for its content type when the route has several. */
function bodySchemaFor<P extends Schema, Q extends Schema, B extends Schema, R extends z.ZodType>(spec: RouteSpec<P, Q, B, R>, request: FastifyRequest): Schema {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return (type !== undefined ? spec.bodies?.[type] : undefined) ?? spec.body;
}
