import { ClientsRepository, type ApiClientWithHash } from '../../clients/clients.repository.js';
import type { Store } from '../../db/store.js';
import type { CustomerRef } from '../../domain/customer-ref.js';
import { CustomersRepository, type CustomerRecord } from '../repositories/customers.repository.js';
import type { ReadCache } from './read-cache.js';

/**
 * The lookups every authenticated call makes, kept in the read cache: a
 * client (its secret hash and token generation, dropped when its secret is
 * rotated) and a customer (hosted or not, its secret hash, dropped by any
 * batch that touches or deletes it). Only found records are kept, so a
 * customer's first event is seen by the next call.
 */
export class CachedClientsRepository extends ClientsRepository {
  constructor(store: Store, private readonly cache: ReadCache) {
    super(store);
  }

  override async getClient(clientId: string): Promise<ApiClientWithHash | undefined> {
    const key = JSON.stringify(['client', clientId]);
    const kept = this.cache.record<ApiClientWithHash>(key);
    if (kept) return kept;
    const readFrom = this.cache.begin();
    const client = await super.getClient(clientId);
    if (client) this.cache.keepRecord(key, { clientId }, readFrom, client);
    return client;
  }
}

export class CachedCustomersRepository extends CustomersRepository {
  constructor(store: Store, private readonly cache: ReadCache) {
    super(store);
  }

  override async getCustomer(ref: CustomerRef): Promise<CustomerRecord | undefined> {
    const key = JSON.stringify(['customer', ref.clientId, ref.customerId]);
    const kept = this.cache.record<CustomerRecord>(key);
    if (kept) return kept;
    const readFrom = this.cache.begin();
    const customer = await super.getCustomer(ref);
    if (customer) this.cache.keepRecord(key, { clientId: ref.clientId, customerId: ref.customerId }, readFrom, customer);
    return customer;
  }
}
