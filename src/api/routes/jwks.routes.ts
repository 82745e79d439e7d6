import type { WebhookSigningKeys } from '../../webhooks/signing-keys.js';
import type { Router } from '../router.js';
import { jwksResponse } from '../schemas/jwks.schemas.js';

/** The public keys that verify webhooks' X-Signature. Public by nature: no auth, no envelope (JWKS clients expect the bare document). */
export function jwksRoutes(router: Router, keys: WebhookSigningKeys): void {
  router.add({
    method: 'GET',
    url: '/.well-known/jwks.json',
    operationId: 'jwks_get',
    summary: 'JSON Web Key Set of the webhook signing keys (kid = X-Signing-ID)',
    tag: 'Webhooks',
    auth: 'none',
    response: jwksResponse,
    handler: async ({ reply }) => {
      reply.header('cache-control', 'public, max-age=300');
      return keys.publicJwks();
    },
  });
}
