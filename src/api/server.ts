import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { Clock } from '../domain/clock.js';
import type { IngestMetrics } from '../ingest/metrics.js';
import type { Logger } from '../logger.js';
import { createAuthenticator } from './auth/authenticate.js';
import { SecretAttempts } from './auth/secret-attempts.js';
import { resolveSigningSecret } from './auth/signing-key.js';
import { TokenService } from './auth/tokens.js';
import { apiError, validationError } from './errors.js';
import { installStrictJsonParser } from './json-body.js';
import { installContentDecoding } from './content-encoding.js';
import { installErrorHandler } from './error-handler.js';
import { clientErrorHandler, frameworkErrorHandler, installServerEdges } from './framework-errors.js';
import { DEFAULT_BODY_LIMIT, FORM_BODY_LIMIT, MAX_PATH_SEGMENT_BYTES, REPORT_PDF_BODY_LIMIT } from './limits.js';
import { installNotFound } from './not-found.js';
import { Router } from './router.js';
import { accountsRoutes } from './routes/accounts.routes.js';
import { affordabilityRoutes } from './routes/affordability.routes.js';
import { bucketTotalsRoutes } from './routes/bucket-totals.routes.js';
import { bucketsRoutes } from './routes/buckets.routes.js';
import { categoriesRoutes } from './routes/categories.routes.js';
import { categoryTotalsRoutes } from './routes/category-totals.routes.js';
import { customerApplicationsRoutes } from './routes/customer-applications.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { metricsRoutes } from './routes/metrics.js';
import { oauthRoutes } from './routes/oauth.routes.js';
import { openApiRoutes } from './routes/openapi.routes.js';
import { transactionsRoutes } from './routes/transactions.routes.js';
import { refreshRoutes } from './routes/refresh.routes.js';
import { ingestRoutes } from './routes/ingest.routes.js';
import type { ForeignCustomers } from './services/foreign-customers.js';
import { INGEST_CONTENT_TYPES } from './schemas/ingest.schemas.js';
import { jwksRoutes } from './routes/jwks.routes.js';
import { reportVerifyRoutes } from './routes/report-verify.routes.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { IngestionService } from '../tasks/ingestion.js';
import type { RefreshService } from '../tasks/refresh.js';
import type { WebhookSigningKeys } from '../webhooks/signing-keys.js';
import { createServices, type ApiServices } from './services/index.js';
import { ReadCache } from './cache/read-cache.js';
import { onDataChange } from '../db/data-changes.js';
import { systemClock } from '../domain/clock.js';

export interface ApiDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** Prometheus metrics of the worker, served at /metrics without auth. */
  metrics?: IngestMetrics;
  /** False while the DB cannot serve (starting, stopping): every call but /healthz then gets 503. */
  isReady?: () => boolean;
  /** False while start-up work (the demo's first ingest) is running: /readyz alone answers 503, other calls are served. */
  isStartedUp?: () => boolean;
  /** The ingest pipeline, which HTTP ingestion writes through like Kafka and files. */
  pipeline?: IngestPipeline;
  /** Refresh tasks (POST/GET /v1/open-banking/refresh); the routes exist only when given. */
  refresh?: RefreshService;
  /** First-party ingestion tasks (POST /v2/ingest/transactions); the route exists only when given. */
  ingestion?: IngestionService;
  /** With several shards: which customers of an ingestion request another shard owns (the request is then refused). */
  foreignCustomers?: ForeignCustomers;
  /** Webhook signing keys, published at /.well-known/jwks.json. */
  webhookKeys?: WebhookSigningKeys;
  /**
   * Several shards only: resolves once this shard has applied the shared
   * client-level state up to where it stood when the call came. Every call
   * that reads it (all but health, metrics and the documents) waits for it.
   */
  clientStateBarrier?: () => Promise<void>;
  /** What "now" is for the default month ranges (the last 6 complete months); the system clock unless given. */
  clock?: Clock;
}

/** A resource's routes: one module per resource under routes/. Later resources append theirs to RESOURCE_ROUTES. */
export type ResourceRoutes = (router: Router, services: ApiServices) => void;

const RESOURCE_ROUTES: readonly ResourceRoutes[] = [
  oauthRoutes,
  bucketsRoutes,
  bucketTotalsRoutes,
  transactionsRoutes,
  accountsRoutes,
  customerApplicationsRoutes,
  categoriesRoutes,
  categoryTotalsRoutes,
  affordabilityRoutes,
  reportVerifyRoutes,
];

/** Paths that read no client-level state, so never wait for it. */
const WITHOUT_CLIENT_STATE = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json', '/.well-known/jwks.json']);

/** Builds the HTTP API. Routes live under routes/, one file per resource. */
export async function buildServer(deps: ApiDeps): Promise<FastifyInstance> {
  const logger = deps.logger.child({ component: 'api' });
  const requestTimeout = deps.config.AFFORD_API_REQUEST_TIMEOUT_MS;
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    requestTimeout,
    // Node expires a request that is slow to arrive only when the headers' timeout is no longer than the request's, and
    // looks every connectionsCheckingInterval (30 s by default); both are read when the server is made.
    // Node answers an HTTP/1.1 request without Host with a bare 400 of its own; the hook below answers it instead.
    http: { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.ceil(requestTimeout / 4)), requireHostHeader: false },
    bodyLimit: DEFAULT_BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT_BYTES },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: clientErrorHandler(logger),
  });
  const isReady = deps.isReady ?? (() => true);
  installServerEdges(app.server, logger);

  // The token call is form-encoded (OAuth 2.0), where a parameter must not be given twice (RFC 6749, 3.1): the last
  // would silently win.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    const params = new URLSearchParams(String(body));
    const repeated = [...new Set([...params.keys()].filter((k) => params.getAll(k).length > 1))];
    if (repeated.length > 0) done(validationError(Object.fromEntries(repeated.slice(0, 10).map((k) => [k.slice(0, 100), 'must be given once']))), undefined);
    else done(null, Object.fromEntries(params));
  });
  // A report PDF to verify, as its bytes.
  app.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit: REPORT_PDF_BODY_LIMIT }, (_req, body, done) => done(null, body));
  installStrictJsonParser(app, INGEST_CONTENT_TYPES);
  installContentDecoding(app);
  app.decorateRequest('auth', null);
  installErrorHandler(app);
  installNotFound(app);
  app.addHook('onRequest', async (request) => {
    // HTTP/1.1 requires Host, once (RFC 9112, 3.2).
    const hosts = request.raw.headersDistinct['host']?.length ?? 0;
    if ((request.raw.httpVersion === '1.1' && hosts === 0) || hosts > 1) throw apiError('MALFORMED_HTTP');
    if (!isReady() && request.url.split('?')[0] !== '/healthz') throw apiError('UNAVAILABLE');
  });
  // Answers hold a customer's financial data: no cache between afford and the lender (a shared proxy) may keep
  // them. A route that may be cached says so itself (the JWKS).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  const barrier = deps.clientStateBarrier;
  if (barrier) {
    app.addHook('onRequest', async (request) => {
      if (WITHOUT_CLIENT_STATE.has(request.url.split('?')[0] ?? '')) return;
      await barrier().catch((err: unknown) => {
        logger.warn({ err }, 'client-level state is not caught up: answering 503');
        throw apiError('UNAVAILABLE');
      });
    });
  }

  const tokens = new TokenService(await resolveSigningSecret(deps.config, deps.store));
  // Every committed write that changes customers' answers announces itself; the cache listens from here on.
  const cache = new ReadCache(deps.config.AFFORD_READ_CACHE_MB * 1024 * 1024, () => deps.store.isOpen);
  const stopListening = onDataChange(deps.store, (change) => cache.invalidate(change));
  app.addHook('onClose', async () => stopListening());
  const clock = deps.clock ?? systemClock;
  const services = createServices(deps.store, tokens, clock, cache, deps.foreignCustomers);
  await services.buckets.installBuiltIns();
  // Wrong customer secrets are counted once for the whole API: in headers and in ingestion bodies alike.
  const attempts = new SecretAttempts();
  const router = new Router(app, createAuthenticator(tokens, services.clients, services.customers, attempts), { cache, clock });

  const isStartedUp = deps.isStartedUp ?? (() => true);
  healthRoutes(router, () => services.health.ping(), () => isReady() && isStartedUp());
  for (const routes of RESOURCE_ROUTES) routes(router, services);
  if (deps.refresh) refreshRoutes(router, deps.refresh);
  if (deps.ingestion) ingestRoutes(router, deps.ingestion, attempts, deps.foreignCustomers);
  if (deps.webhookKeys) jwksRoutes(router, deps.webhookKeys);
  openApiRoutes(router);
  if (deps.metrics) await metricsRoutes(app, deps.metrics);
  return app;
}
