import { queryFile } from '../db/script.js';
import type { Store } from '../db/store.js';

export type ClientResolution = { ok: true; clientId: string } | { ok: false; reason: string };

/**
 * A customer is identified by its client and its id, and two clients may use
 * the same id. A command names the client with --client; without it, the
 * customer id must belong to exactly one client.
 */
export async function resolveCustomerClient(store: Store, customerId: string, client: string | undefined): Promise<ClientResolution> {
  const rows = await store.read((conn) => queryFile<{ client_id: string }>(conn, 'queries/clients-of-customer', { customer_id: customerId }, { client_id: 'text' }));
  const clients = rows.map((r) => r.client_id);
  if (client !== undefined) return clients.includes(client) ? { ok: true, clientId: client } : { ok: false, reason: `no customer ${customerId} of client ${client}` };
  if (clients.length === 0) return { ok: false, reason: `no customer ${customerId}` };
  if (clients.length > 1) return { ok: false, reason: `customer ${customerId} exists for clients ${clients.join(', ')}: name one with --client` };
  return { ok: true, clientId: clients[0] ?? '' };
}
