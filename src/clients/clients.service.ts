import { randomUUID } from 'node:crypto';
import type { ApiClient, ClientsRepository } from './clients.repository.js';
import { hashSecret, newSecret } from '../domain/secrets.js';
import { affordError } from '../domain/errors.js';

export interface IssuedClient {
  client_id: string;
  client_secret: string;
  name: string;
}

export const CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * API clients for the console-less setup: the secret is shown once, at
 * creation, and only its salted hash is stored. A client_id may be given so
 * that it equals the client id that the data carries (customers belong to
 * data client ids).
 */
export class ClientsService {
  constructor(private readonly clients: ClientsRepository) {}

  async create(name: string, clientId: string = randomUUID()): Promise<IssuedClient> {
    if (!CLIENT_ID_PATTERN.test(clientId)) throw affordError('CLIENT_ID_INVALID', clientId);
    if (name.trim() === '') throw affordError('CLIENT_NAME_EMPTY');
    await this.clients.settled();
    if (await this.clients.getClient(clientId)) throw affordError('CLIENT_EXISTS', clientId);
    const secret = newSecret();
    await this.clients.insertClient(clientId, name, hashSecret(secret));
    return { client_id: clientId, client_secret: secret, name };
  }

  /** A new secret for an existing client (the old one stops working); undefined when there is no such client. */
  async rotateSecret(clientId: string, name: string): Promise<IssuedClient | undefined> {
    const secret = newSecret();
    await this.clients.settled();
    return (await this.clients.replaceSecret(clientId, name, hashSecret(secret))) ? { client_id: clientId, client_secret: secret, name } : undefined;
  }

  list(): Promise<ApiClient[]> {
    return this.clients.listClients();
  }
}
