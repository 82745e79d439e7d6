import type { MonthRange } from '../domain/months.js';

/** Who and what a report is for. */
export interface ReportRequest {
  /** A customer is (client, customer id): two clients may use the same customer id. */
  clientId: string;
  customerId: string;
  range: MonthRange;
  /** Restrict to these accounts; undefined means all of the customer's accounts. */
  accountIds?: readonly string[];
  currency: string;
}
