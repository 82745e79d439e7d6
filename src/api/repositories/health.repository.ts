import { queryFile } from '../../db/script.js';
import type { Store } from '../../db/store.js';

/** What readiness asks of the store: that a reader connection answers a query. */
export class HealthRepository {
  constructor(private readonly store: Store) {}

  async ping(): Promise<void> {
    await this.store.read((conn) => queryFile(conn, 'queries/api/ping'));
  }
}
