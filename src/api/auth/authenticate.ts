import type { FastifyRequest } from 'fastify';
import type { ClientsRepository } from '../../clients/clients.repository.js';
import { verifySecret } from '../../domain/secrets.js';
import { apiError, validationError } from '../errors.js';
import { MAX_ID_LENGTH } from '../limits.js';
import type { CustomersRepository } from '../repositories/customers.repository.js';
import type { AuthContext, AuthLevel } from './context.js';
import { currentToken } from './current-token.js';
import { bearerToken, credentialHeaders, header, utf8Header } from './headers.js';
import type { TokenService } from './tokens.js';
import { SecretAttempts } from './secret-attempts.js';

export interface Authenticator {
  (request: FastifyRequest, level: AuthLevel): Promise<AuthContext | null>;
}

/**
 * The checks of every call but the token call, in order:
 * 1. a valid, unexpired access token, issued under its client's current
 *    secret, whose client is the X-Client-ID (else 401);
 * 2. on customer routes, an X-Customer-ID or X-Customer-Idempotent-Identifier
 *    (else 400 failed_validation naming the header: a client of the reference
 *    API takes a 401 for an expired token and would refresh it in a loop) of
 *    a customer of that client (else 404): another client's customer of the
 *    same id is not seen;
 * 3. for a customer that is not hosted, the right X-Customer-Secret, compared
 *    in constant time (else 401); after ten wrong ones within ten minutes,
 *    429 with Retry-After until ten minutes have passed since the last
 *    (secret-attempts.ts).
 */
export function createAuthenticator(tokens: TokenService, clients: ClientsRepository, customers: CustomersRepository, attempts: SecretAttempts = new SecretAttempts()): Authenticator {
  return async (request, level) => {
    if (level === 'none') return null;
    const token = bearerToken(credentialHeaders(request.raw));
    const clientId = header(request.headers, 'x-client-id');
    if (!token || !clientId) throw apiError('UNAUTHORISED');
    const verified = await currentToken(tokens, clients, token, 'access');
    if (verified === undefined || verified.clientId !== clientId) throw apiError('UNAUTHORISED');
    if (level === 'client') return { clientId };

    const customerId = customerIdHeader(request);
    const customer = await customers.getCustomer({ clientId, customerId });
    if (!customer) throw apiError('NOT_FOUND');
    if (!customer.hosted) {
      const locked = attempts.lockedFor(clientId, customerId);
      if (locked > 0) throw apiError('TOO_MANY_ATTEMPTS', { retryAfterSeconds: locked });
      const secret = header(request.headers, 'x-customer-secret');
      if (!secret || !verifySecret(secret, customer.secretHash)) {
        attempts.failed(clientId, customerId);
        throw apiError('UNAUTHORISED');
      }
      attempts.succeeded(clientId, customerId);
    }
    return { clientId, customerId };
  };
}

const CUSTOMER_HEADER = 'X-Customer-ID';
/**
 * The reference's alternative to X-Customer-ID: the client's own identifier
 * of the customer. afford's customer ids are the client's own identifiers,
 * so the two name the same customer.
 */
const IDEMPOTENT_HEADER = 'X-Customer-Idempotent-Identifier';

/** One customer header's value, undefined when absent; a validation error naming it when malformed. */
function customerHeader(request: FastifyRequest, name: string): string | undefined {
  const given = request.headers[name.toLowerCase()];
  // Node joins a repeated X- header into one value ('a, a'): its distinct values tell that it was repeated.
  if (Array.isArray(given) || (request.raw.headersDistinct[name.toLowerCase()]?.length ?? 0) > 1) throw validationError({ [name]: 'must be given once' });
  if (given === undefined || given === '') return undefined;
  // Bytes that are not UTF-8 name no customer: the front would route them by other bytes than this reads.
  const id = utf8Header(given);
  if (id === undefined) throw validationError({ [name]: 'must be UTF-8 text' });
  if (id.length > MAX_ID_LENGTH) throw validationError({ [name]: `must be at most ${MAX_ID_LENGTH} characters` });
  return id;
}

/** The customer of a customer call: X-Customer-ID or X-Customer-Idempotent-Identifier, or a validation error that names the header. */
function customerIdHeader(request: FastifyRequest): string {
  const id = customerHeader(request, CUSTOMER_HEADER);
  const idempotent = customerHeader(request, IDEMPOTENT_HEADER);
  if (id !== undefined && idempotent !== undefined && id !== idempotent) throw validationError({ [IDEMPOTENT_HEADER]: `must name the same customer as ${CUSTOMER_HEADER}` });
  const customerId = id ?? idempotent;
  if (customerId === undefined) throw validationError({ [CUSTOMER_HEADER]: 'is required' });
  return customerId;
}
