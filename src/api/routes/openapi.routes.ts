import { z } from 'zod';
import { openApiDocument } from '../openapi.js';
import type { Router } from '../router.js';

/** The OpenAPI document, built on first request from every route registered by then. */
export function openApiRoutes(router: Router): void {
  let cached: Record<string, unknown> | undefined;
  router.add({
    method: 'GET',
    url: '/openapi.json',
    operationId: 'openapi_get',
    summary: 'This API as an OpenAPI 3.1 document, generated from its zod schemas',
    tag: 'Operations',
    auth: 'none',
    response: z.record(z.string(), z.unknown()),
    handler: async () => (cached ??= openApiDocument(router.docs)),
  });
}
