import type { FastifyInstance } from 'fastify';
import type { IngestMetrics } from '../../ingest/metrics.js';

/** Prometheus text format. Outside the auth of the lender API, like /healthz. */
export async function metricsRoutes(app: FastifyInstance, metrics: IngestMetrics): Promise<void> {
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
