import { queryFile } from '../../db/script.js';
import type { Store } from '../../db/store.js';

export interface ApplicationRecord {
  customerId: string;
  body: Record<string, unknown>;
}

export class CustomerApplicationsRepository {
  constructor(private readonly store: Store) {}

  /** The application if it belongs to a customer of the client; undefined otherwise. */
  async getForClient(clientId: string, applicationId: string): Promise<ApplicationRecord | undefined> {
    const rows = await this.store.read((conn) =>
      queryFile<{ customer_id: string; body: string }>(
        conn,
        'queries/api/get-customer-application',
        { client_id: clientId, application_id: applicationId },
        { customer_id: 'text', body: 'text' },
      ),
    );
    const row = rows[0];
    return row ? { customerId: row.customer_id, body: JSON.parse(row.body) as Record<string, unknown> } : undefined;
  }
}
