import type { ClientsRepository } from '../../clients/clients.repository.js';
import { secretFingerprint, type TokenService, type TokenUse, type VerifiedToken } from './tokens.js';

/**
 * What a token that is valid now says: well signed, unexpired, of the
 * right use, of a client that still exists, and issued under that client's
 * current secret. A rotation refuses every token issued before it.
 */
export async function currentToken(tokens: TokenService, clients: ClientsRepository, token: string, use: TokenUse): Promise<VerifiedToken | undefined> {
  const verified = await tokens.verify(token, use);
  if (!verified) return undefined;
  const client = await clients.getClient(verified.clientId);
  if (!client || client.tokenGeneration !== verified.generation) return undefined;
  if (verified.secret !== undefined && verified.secret !== secretFingerprint(client.secretHash)) return undefined;
  return verified;
}
