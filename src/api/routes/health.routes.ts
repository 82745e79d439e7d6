import { z } from 'zod';
import { apiError } from '../errors.js';
import type { Router } from '../router.js';

const healthResponse = z.object({ status: z.literal('ok') });
const readyResponse = z.object({ status: z.literal('ready') });

/**
 * Liveness (the process answers) and readiness: start-up work is done and the
 * DB answers a query. No auth, no envelope; not ready is the 503 error body.
 */
export function healthRoutes(router: Router, ping: () => Promise<void>, isReady: () => boolean): void {
  router.add({
    method: 'GET',
    url: '/healthz',
    operationId: 'healthz_get',
    summary: 'Liveness: the process is up',
    tag: 'Operations',
    auth: 'none',
    response: healthResponse,
    handler: async () => ({ status: 'ok' as const }),
  });

  router.add({
    method: 'GET',
    url: '/readyz',
    operationId: 'readyz_get',
    summary: 'Readiness: start-up work is done and the DB answers',
    tag: 'Operations',
    auth: 'none',
    response: readyResponse,
    handler: async () => {
      if (!isReady()) throw apiError('UNAVAILABLE');
      try {
        await ping();
      } catch {
        throw apiError('UNAVAILABLE');
      }
      return { status: 'ready' as const };
    },
  });
}
