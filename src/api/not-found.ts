import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, errorBody } from './errors.js';

interface KnownRoute {
  pattern: RegExp;
  methods: Set<string>;
}

function patternOf(url: string): RegExp {
  const parts = url.split('/').map((p) => (p.startsWith(':') ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}$`);
}

/**
 * An unknown path answers the interface's 404 body; a known path with a method it
 * does not have answers the 405 body, with Allow. Routes are collected as
 * they are added, so routes of later plugins count too.
 */
export function installNotFound(app: FastifyInstance): void {
  const known = new Map<string, KnownRoute>();
  app.addHook('onRoute', (route) => {
    const entry = known.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const m of [route.method].flat()) entry.methods.add(m);
    known.set(route.url, entry);
  });
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const match = [...known.values()].find((r) => r.pattern.test(path));
    if (match) {
      reply.header('allow', [...match.methods].filter((m) => m !== 'HEAD').join(', '));
      return reply.code(405).send(errorBody(apiError('METHOD_NOT_ALLOWED'), 'unknown'));
    }
    return reply.code(404).send(errorBody(apiError('NOT_FOUND'), 'unknown'));
  });
}
