import type { FastifyRequest } from 'fastify';
import type { ClientsRepository } from '../../clients/clients.repository.js';
import { verifySecret } from '../../domain/secrets.js';
import { apiError } from '../errors.js';
import type { CustomersRepository } from '../repositories/customers.repository.js';
import type { AuthContext, AuthLevel } from './context.js';
import { currentTokenClient } from './current-token.js';
import { bearerToken, header } from './headers.js';
import type { TokenService } from './tokens.js';

export interface Authenticator {
  (request: FastifyRequest, level: AuthLevel): Promise<AuthContext | null>;
}

/**
 * The checks of every call but the token call, in order:
 * 1. a valid, unexpired access token, issued under its client's current
 *    secret, whose client is the X-Client-ID (else 401);
 * 2. on customer routes, an X-Customer-ID (else 401) of a customer of that
 *    client (else 404): another client's customer of the same id is not seen;
 * 3. for a customer that is not hosted, the right X-Customer-Secret, compared
 *    in constant time (else 401).
 */
export function createAuthenticator(tokens: TokenService, clients: ClientsRepository, customers: CustomersRepository): Authenticator {
  return async (request, level) => {
    if (level === 'none') return null;
    const token = bearerToken(request.headers);
    const clientId = header(request.headers, 'x-client-id');
    if (!token || !clientId) throw apiError('UNAUTHORISED');
    const tokenClient = await currentTokenClient(tokens, clients, token, 'access');
    if (tokenClient === undefined || tokenClient !== clientId) throw apiError('UNAUTHORISED');
    if (level === 'client') return { clientId };

    const customerId = header(request.headers, 'x-customer-id');
    if (!customerId) throw apiError('UNAUTHORISED');
    const customer = await customers.getCustomer({ clientId, customerId });
    if (!customer) throw apiError('NOT_FOUND');
    if (!customer.hosted) {
      const secret = header(request.headers, 'x-customer-secret');
      if (!secret || !verifySecret(secret, customer.secretHash)) throw apiError('UNAUTHORISED');
    }
    return { clientId, customerId };
  };
}
