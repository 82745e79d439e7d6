import type { Clock } from '../../domain/clock.js';
import { dateRanges, type DateRangeEnd } from '../../domain/date-ranges.js';
import { apiError } from '../errors.js';
import type { CustomerApplicationsRepository } from '../repositories/customer-applications.repository.js';
import {
  customerApplicationMetadata,
  customerApplicationOut,
  type CustomerApplicationOut,
} from '../schemas/customer-applications.schemas.js';
import type { z } from 'zod';

export interface ApplicationPeriods {
  timezone: string;
  date_range_end: DateRangeEnd;
  date_range_durations: string[];
}

/** The reference's application metadata holds strings only, so every other value is given as its JSON text. */
function stringValues(metadata: unknown): Record<string, string> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return {};
  return Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

export class CustomerApplicationsService {
  constructor(
    private readonly applications: CustomerApplicationsRepository,
    private readonly clock: Clock,
  ) {}

  /** NOT_FOUND for an unknown application and for another client's, alike. */
  async get(clientId: string, applicationId: string): Promise<CustomerApplicationOut> {
    const record = await this.applications.getForClient(clientId, applicationId);
    if (!record) throw apiError('NOT_FOUND');
    // Stored as validated at ingest; the parse fills the defaults of older rows and drops nothing that the contract names.
    // The reference's types allow no null for deletion_date (empty when unset) or secondary_applicants (a list),
    // and only strings in metadata.
    return customerApplicationOut.parse({
      accounts_connected: 0,
      initiator_id: '',
      review_status: 'pending',
      assignee: '',
      ...record.body,
      metadata: stringValues(record.body['metadata']),
      deletion_date: record.body['deletion_date'] ?? '',
      secondary_applicants: record.body['secondary_applicants'] ?? [],
      financial_data_consent: 'one_time',
      customer_id: record.customerId,
    });
  }

  /** The response's metadata: the periods to assess the application over, ending now by the service's clock. */
  periods(query: ApplicationPeriods): z.infer<typeof customerApplicationMetadata> {
    return {
      timezone: query.timezone,
      date_range_end: query.date_range_end,
      date_ranges: dateRanges(this.clock(), query.date_range_end, query.date_range_durations),
    };
  }
}
