import type { Store } from '../../db/store.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import type { AffordabilityReport } from '../../reports/report-model.js';
import { renderReportPdf } from '../../reports/report-pdf.js';
import { findForeignAccounts } from '../../reports/report-repository.js';
import { buildReport } from '../../reports/report-service.js';
import type { AffordabilityInsights } from '../../reports/insights-model.js';
import { buildInsights } from '../../reports/insights-service.js';
import type { CustomerRef } from '../../domain/customer-ref.js';
import { apiError } from '../errors.js';
import type { AffordabilityQuery, InsightsQuery } from '../schemas/affordability.schemas.js';
import { resolveMonthRange } from './month-range.js';

/** GET /v1/affordability/report: the report model of src/reports, for one authenticated customer. */
export class AffordabilityService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock = systemClock,
  ) {}

  async report(customer: CustomerRef, q: AffordabilityQuery, now: Date = this.clock()): Promise<AffordabilityReport> {
    const request = await this.request(customer, q, now);
    const report = await buildReport(this.store, request, now);
    if (!report) throw apiError('NOT_FOUND');
    return report;
  }

  /** GET /v1/affordability/insights: the same request, the same checks, the same defaults as the report. */
  async insights(customer: CustomerRef, q: InsightsQuery, now: Date = this.clock()): Promise<AffordabilityInsights> {
    const insights = await buildInsights(this.store, await this.request(customer, q, now), now);
    if (!insights) throw apiError('NOT_FOUND');
    return insights;
  }

  private async request(customer: CustomerRef, q: InsightsQuery, now: Date) {
    const range = resolveMonthRange({ month_from: q.month_from, month_to: q.month_to }, now);
    const accountIds = q.account_id;
    if (accountIds?.length) {
      // An account that is not the customer's must not quietly give a report of nothing.
      const foreign = await findForeignAccounts(this.store, customer, accountIds);
      if (foreign.length) throw apiError('ACCOUNT_NOT_FOUND', { errors: { account_id: `unknown account: ${foreign.join(', ')}` } });
    }
    return { ...customer, range, accountIds, currency: q.currency };
  }

  pdf(report: AffordabilityReport): Promise<Buffer> {
    return renderReportPdf(report);
  }
}
