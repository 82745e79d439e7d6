import { announceDataChange } from '../db/data-changes.js';
import type { Store } from '../db/store.js';
import { queryFile } from '../db/script.js';
import { clientStateWriter } from '../db/client-state.js';
import { isoFromDb } from '../domain/timestamps.js';
import { affordError } from '../domain/errors.js';
import { type Columns } from '../db/rows.js';

/** An API client: a tenant that calls the read API. Only a hash of its secret is kept. */
export interface ApiClient {
  clientId: string;
  name: string;
  createdAt: string;
}

export interface ApiClientWithHash extends ApiClient {
  secretHash: string;
  /** Moves on at each secret rotation; tokens of an earlier generation are refused. */
  tokenGeneration: number;
}

interface ClientRow {
  client_id: string;
  name: string;
  secret_hash?: string;
  token_generation?: number | bigint;
  created_at: string;
}

const CLIENT_COLUMNS: Columns<ClientRow> = { client_id: 'text', name: 'text', created_at: 'text' };
const CLIENT_SECRET_COLUMNS: Columns<ClientRow> = { ...CLIENT_COLUMNS, secret_hash: 'text', token_generation: 'text' };

function toClient(row: ClientRow): ApiClient {
  return { clientId: row.client_id, name: row.name, createdAt: isoFromDb(row.created_at) ?? '' };
}

/** With several shards, a write goes to every shard as a client-state change (src/db/client-state.ts). */
export class ClientsRepository {
  constructor(private readonly store: Store) {}

  /**
   * Waits, with several shards, until this one has applied every client-level
   * change written before: a check before a write (a client that exists
   * already) then sees what another shard wrote, as the API's calls do. The
   * command line's calls reach the service without that wait.
   */
  async settled(): Promise<void> {
    await clientStateWriter(this.store)?.caughtUp();
  }

  async insertClient(clientId: string, name: string, secretHash: string): Promise<void> {
    const shared = clientStateWriter(this.store);
    if (shared) {
      const now = new Date().toISOString();
      const value = { client_id: clientId, name, secret_hash: secretHash, token_generation: 0, created_at: now, updated_at: now };
      await shared.write({ kind: 'api-client', id: clientId, value });
      // Created at the same moment through another shard, whose change came after this one and stands.
      if ((await this.getClient(clientId))?.secretHash !== secretHash) throw affordError('CLIENT_EXISTS', clientId);
      return;
    }
    await this.store.write((conn) => queryFile(conn, 'queries/api/insert-client', { client_id: clientId, name, secret_hash: secretHash }));
  }

  /** Replaces the secret (and name) of an existing client, revoking its tokens; false when there is none. */
  async replaceSecret(clientId: string, name: string, secretHash: string): Promise<boolean> {
    const shared = clientStateWriter(this.store);
    if (shared) {
      const existing = await this.getClient(clientId);
      if (!existing) return false;
      const value = {
        client_id: clientId, name, secret_hash: secretHash, token_generation: existing.tokenGeneration + 1, created_at: existing.createdAt,
        updated_at: new Date().toISOString(),
      };
      await shared.write({ kind: 'api-client', id: clientId, value });
      // Removed, or given another secret, through another shard at the same moment: this secret is not the client's.
      const now = await this.getClient(clientId);
      if (!now) return false;
      if (now.secretHash !== secretHash) throw affordError('CLIENT_STATE_CONFLICT', `client ${clientId}`);
      return true;
    }
    const replaced = await this.store.write(async (conn) => {
      const existing = await queryFile<ClientRow>(conn, 'queries/api/get-client', { client_id: clientId }, CLIENT_SECRET_COLUMNS);
      if (existing.length === 0) return false;
      await queryFile(conn, 'queries/api/update-client-secret', { client_id: clientId, name, secret_hash: secretHash });
      // Moves the client's token generation on: every token issued before is refused from now.
      await queryFile(conn, 'queries/api/record-secret-rotation', { client_id: clientId });
      return true;
    });
    // The API keeps clients' token generations in memory: this one must be read again.
    if (replaced) announceDataChange(this.store, { kind: 'clients', clientIds: [clientId] });
    return replaced;
  }

  async getClient(clientId: string): Promise<ApiClientWithHash | undefined> {
    const rows = await this.store.read((conn) => queryFile<ClientRow>(conn, 'queries/api/get-client', { client_id: clientId }, CLIENT_SECRET_COLUMNS));
    const row = rows[0];
    return row ? { ...toClient(row), secretHash: row.secret_hash ?? '', tokenGeneration: Number(row.token_generation ?? 0) } : undefined;
  }

  async listClients(): Promise<ApiClient[]> {
    const rows = await this.store.read((conn) => queryFile<ClientRow>(conn, 'queries/api/list-clients', {}, CLIENT_COLUMNS));
    return rows.map(toClient);
  }
}
