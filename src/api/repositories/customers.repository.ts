import { queryFile } from '../../db/script.js';
import type { Store } from '../../db/store.js';
import type { CustomerRef } from '../../domain/customer-ref.js';

export interface CustomerRecord {
  customerId: string;
  clientId: string;
  hosted: boolean;
  secretHash: string | null;
}

interface CustomerRow {
  customer_id: string;
  client_id: string;
  hosted: boolean;
  secret_hash: string | null;
}

export class CustomersRepository {
  constructor(private readonly store: Store) {}

  async getCustomer(ref: CustomerRef): Promise<CustomerRecord | undefined> {
    const rows = await this.store.read((conn) =>
      queryFile<CustomerRow>(
        conn,
        'queries/api/get-customer',
        { client_id: ref.clientId, customer_id: ref.customerId },
        { customer_id: 'text', client_id: 'text', hosted: 'boolean', secret_hash: 'text' },
      ),
    );
    const row = rows[0];
    return row ? { customerId: row.customer_id, clientId: row.client_id, hosted: row.hosted, secretHash: row.secret_hash } : undefined;
  }
}
