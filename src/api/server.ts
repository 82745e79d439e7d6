import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { Logger } from '../logger.js';

export interface ApiDeps {
  store: Store;
  config: Config;
  logger: Logger;
}

/** Builds the HTTP API. Routes live under routes/, one file per resource. */
export async function buildServer(deps: ApiDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({ loggerInstance: deps.logger.child({ component: 'api' }) as FastifyBaseLogger });
  app.get('/healthz', async () => ({ status: 'ok' }));
  return app;
}
