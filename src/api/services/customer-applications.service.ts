import { apiError } from '../errors.js';
import type { CustomerApplicationsRepository } from '../repositories/customer-applications.repository.js';
import { customerApplicationOut, type CustomerApplicationOut } from '../schemas/customer-applications.schemas.js';

export class CustomerApplicationsService {
  constructor(private readonly applications: CustomerApplicationsRepository) {}

  /** NOT_FOUND for an unknown application and for another client's, alike. */
  async get(clientId: string, applicationId: string): Promise<CustomerApplicationOut> {
    const record = await this.applications.getForClient(clientId, applicationId);
    if (!record) throw apiError('NOT_FOUND');
    // Stored as validated at ingest; the parse fills the defaults of older rows and drops nothing that the contract names.
    return customerApplicationOut.parse({
      accounts_connected: 0,
      metadata: {},
      secondary_applicants: null,
      initiator_id: '',
      review_status: 'pending',
      assignee: '',
      ...record.body,
      customer_id: record.customerId,
    });
  }
}
