import type { Store } from '../../db/store.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import type { AffordabilityReport } from '../../reports/report-model.js';
import { renderReportPdf } from '../../reports/report-pdf.js';
import { findForeignAccounts } from '../../reports/report-repository.js';
import { buildReport, buildReportWithTransactions, type ReportWithTransactions } from '../../reports/report-service.js';
import type { PdfRenderer } from '../../reports/pdf-pool.js';
import type { CustomerRef } from '../../domain/customer-ref.js';
import { apiError } from '../errors.js';
import type { AffordabilityQuery } from '../schemas/affordability.schemas.js';
import { resolveMonthRange } from './month-range.js';

/** GET /v1/affordability/report: the report model of src/reports, for one authenticated customer. */
export class AffordabilityService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock = systemClock,
    private readonly renderer?: PdfRenderer,
  ) {}

  async report(customer: CustomerRef, q: AffordabilityQuery, now: Date = this.clock()): Promise<AffordabilityReport> {
    return (await this.build(customer, q, now, false)).report;
  }

  /** The report as a PDF, rendered off the request thread when a pool is given. */
  async pdf(customer: CustomerRef, q: AffordabilityQuery, now: Date = this.clock()): Promise<{ pdf: Buffer; report: AffordabilityReport }> {
    const input = await this.build(customer, q, now, true);
    const pdf = this.renderer ? await this.renderer.render(input) : await renderReportPdf(input);
    return { pdf, report: input.report };
  }

  private async build(customer: CustomerRef, q: AffordabilityQuery, now: Date, withTransactions: boolean): Promise<ReportWithTransactions> {
    const range = resolveMonthRange({ month_from: q.month_from, month_to: q.month_to }, now);
    const accountIds = q.account_id;
    if (accountIds?.length) {
      // An account that is not the customer's must not quietly give a report of nothing.
      const foreign = await findForeignAccounts(this.store, customer, accountIds);
      if (foreign.length) throw apiError('ACCOUNT_NOT_FOUND', { errors: { account_id: `unknown account: ${foreign.join(', ')}` } });
    }
    const request = { ...customer, range, accountIds, currency: q.currency };
    const built = withTransactions ? await buildReportWithTransactions(this.store, request, now) : await buildReport(this.store, request, now).then((report) => report && { report, transactions: '[]' });
    if (!built) throw apiError('NOT_FOUND');
    return built;
  }
}
