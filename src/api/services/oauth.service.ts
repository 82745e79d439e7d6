import type { IncomingHttpHeaders } from 'node:http';
import type { ClientsRepository } from '../../clients/clients.repository.js';
import { hashSecret, verifySecret } from '../../domain/secrets.js';
import { currentToken } from '../auth/current-token.js';
import { basicCredentials, header } from '../auth/headers.js';
import { refreshChainEnded, type IssuedTokens, type TokenService } from '../auth/tokens.js';
import { apiError, validationError } from '../errors.js';
import type { TokenRequest } from '../schemas/oauth.schemas.js';

/** Checked against when the client is unknown, so that both cases take the same time. */
const DUMMY_HASH = hashSecret('no such client');

/**
 * POST /v1/oauth/token. The first token: HTTP Basic client_id:client_secret
 * with grant_type=client_credentials. A refresh: grant_type=refresh_token and
 * the refresh token, no Basic auth; its new refresh token ends when the chain
 * that the client credentials began does (tokens.ts). Both need X-Client-Id
 * naming the same client, and a client that still exists. Anything wrong is
 * the interface's 401.
 */
export class OAuthService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly tokens: TokenService,
  ) {}

  async issue(body: TokenRequest, headers: IncomingHttpHeaders): Promise<IssuedTokens> {
    const clientId = header(headers, 'x-client-id');
    if (body.grant_type === 'client_credentials') {
      const basic = basicCredentials(headers);
      if (!basic || !clientId || basic.username !== clientId) throw apiError('UNAUTHORISED');
      const client = await this.clients.getClient(clientId);
      const ok = verifySecret(basic.password, client?.secretHash ?? DUMMY_HASH);
      if (!client || !ok) throw apiError('UNAUTHORISED');
      return this.tokens.issue(client.clientId, client.tokenGeneration, client.secretHash);
    }
    if (body.refresh_token === undefined) throw validationError({ refresh_token: 'is required' });
    // A refresh token issued before the client's secret was rotated is refused like a forged one.
    const verified = await currentToken(this.tokens, this.clients, body.refresh_token, 'refresh');
    if (verified === undefined || verified.clientId !== clientId) throw apiError('UNAUTHORISED');
    // A refresh token that names no start (not one afford made) has no chain to carry on.
    const { chainStartedAt } = verified;
    if (chainStartedAt === undefined || refreshChainEnded(chainStartedAt)) throw apiError('UNAUTHORISED');
    const client = await this.clients.getClient(verified.clientId);
    if (!client) throw apiError('UNAUTHORISED');
    return this.tokens.issue(verified.clientId, client.tokenGeneration, client.secretHash, chainStartedAt);
  }
}
