import { credentialHeaders } from '../auth/headers.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import { OP_OAUTH_TOKEN_POST, tokenRequestBody, tokenResponse } from '../schemas/oauth.schemas.js';
import type { ApiServices } from '../services/index.js';

export function oauthRoutes(router: Router, { oauth }: ApiServices): void {
  router.add({
    method: 'POST',
    url: '/v1/oauth/token',
    operationId: OP_OAUTH_TOKEN_POST,
    summary: 'Issue an access token (client credentials with HTTP Basic, or a refresh token)',
    tag: 'Auth',
    auth: 'none',
    body: tokenRequestBody,
    bodyContentType: 'application/x-www-form-urlencoded',
    response: tokenResponse,
    handler: async ({ body, request, reply }) => {
      reply.header('cache-control', 'no-store');
      return envelope(OP_OAUTH_TOKEN_POST, await oauth.issue(body, credentialHeaders(request.raw)));
    },
  });
}
