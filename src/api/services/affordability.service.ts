import type { Store } from '../../db/store.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import type { AffordabilityReport, ReportRequest } from '../../reports/report-model.js';
import { findForeignAccounts } from '../../reports/report-repository.js';
import { buildReport, buildReportWithTransactions } from '../../reports/report-service.js';
import { sharedPdfPool, type PdfRenderer } from '../../reports/pdf-pool.js';
import { isRefused, provenanceOf, verifyPdf, type VerifyResult } from '../../reports/report-verify.js';
import { verifySecret } from '../../domain/secrets.js';
import { CustomersRepository } from '../repositories/customers.repository.js';
import type { AffordabilityInsights } from '../../reports/insights-model.js';
import { buildInsights } from '../../reports/insights-service.js';
import type { CustomerRef } from '../../domain/customer-ref.js';
import { apiError } from '../errors.js';
import type { AffordabilityQuery, InsightsQuery } from '../schemas/affordability.schemas.js';
import { resolveMonthRange } from './month-range.js';
import { signedPdf } from '../../reports/report-signature.js';
import type { ForeignCustomers } from './foreign-customers.js';

/** GET /v1/affordability/report: the report model of src/reports, for one authenticated customer. */
export class AffordabilityService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock = systemClock,
    private readonly renderer: PdfRenderer = sharedPdfPool(),
    private readonly customers: CustomersRepository = new CustomersRepository(store),
    private readonly foreign?: ForeignCustomers,
  ) {}

  async report(customer: CustomerRef, q: AffordabilityQuery, now: Date = this.clock()): Promise<AffordabilityReport> {
    const request = await this.request(customer, q, now);
    const report = await buildReport(this.store, request, now);
    if (!report) throw apiError('NOT_FOUND');
    return report;
  }

  /** The report as a PDF, rendered off the request thread (a worker pool). */
  async pdf(customer: CustomerRef, q: AffordabilityQuery, now: Date = this.clock()): Promise<{ pdf: Buffer; report: AffordabilityReport }> {
    const input = await buildReportWithTransactions(this.store, await this.request(customer, q, now), now);
    if (!input) throw apiError('NOT_FOUND');
    const pdf = await signedPdf(this.store, await this.renderer.render(input));
    return { pdf, report: input.report };
  }

  /**
   * POST /v1/affordability/report/verify: the PDF's report recomputed from the store, for the client that owns it.
   * The answer holds the customer's figures now, so a customer that is not hosted needs their secret, as every
   * customer call does (`customerSecret`, the X-Customer-Secret header).
   */
  async verify(clientId: string, pdf: Buffer, customerSecret?: string): Promise<VerifyResult> {
    const found = provenanceOf(pdf);
    if (!found) throw apiError('FAILED_VALIDATION', { errors: { body: 'is not a report PDF that afford made (or another program saved it again)' } });
    if (isRefused(found)) throw apiError('FAILED_VALIDATION', { errors: { body: `carries report data that afford did not make: ${found.refused}` } });
    if (found.request.client_id !== clientId) throw apiError('NOT_FOUND');
    // With several shards, the customer's own shard answers (the front asks each in turn): its store, and its signing key.
    if (this.foreign && (await this.foreign([found.request.customer_id])).length > 0) throw apiError('NOT_FOUND');
    const customer = await this.customers.getCustomer({ clientId, customerId: found.request.customer_id });
    if (customer && !customer.hosted && !(customerSecret && verifySecret(customerSecret, customer.secretHash))) throw apiError('UNAUTHORISED');
    return verifyPdf(this.store, pdf, found);
  }

  /** GET /v1/affordability/insights: the same request, the same checks, the same defaults as the report. */
  async insights(customer: CustomerRef, q: InsightsQuery, now: Date = this.clock()): Promise<AffordabilityInsights> {
    const insights = await buildInsights(this.store, await this.request(customer, q, now), now);
    if (!insights) throw apiError('NOT_FOUND');
    return insights;
  }

  private async request(customer: CustomerRef, q: InsightsQuery, now: Date): Promise<ReportRequest> {
    const range = resolveMonthRange({ month_from: q.month_from, month_to: q.month_to }, now);
    const accountIds = q.account_id;
    if (accountIds?.length) {
      // An account that is not the customer's must not quietly give a report of nothing.
      const foreign = await findForeignAccounts(this.store, customer, accountIds);
      if (foreign.length) throw apiError('ACCOUNT_NOT_FOUND', { errors: { account_id: `unknown account: ${foreign.join(', ')}` } });
    }
    return { ...customer, range, accountIds, currency: q.currency };
  }
}
