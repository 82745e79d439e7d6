import { z } from 'zod';
import { REPORT_OPERATION_ID } from '../../reports/report-model.js';
import { currencyParam, envelopeOf, monthParam, moneyOut, queryString } from './common.js';
import { insightsData } from './insights.schemas.js';
import { timezoneParam } from './timezone.js';

export const OP_AFFORDABILITY_REPORT_GET = REPORT_OPERATION_ID;

export const affordabilityQuery = z.object({
  month_from: monthParam.optional(),
  month_to: monthParam.optional(),
  // Repeatable: ?account_id=a&account_id=b restricts the report to those accounts.
  account_id: z
    .union([queryString, z.array(queryString).max(50, 'must be given at most 50 times')])
    .transform((v) => [...new Set(Array.isArray(v) ? v : [v])])
    .optional(),
  currency: currencyParam.default('GBP'),
  /** The reference's parameter: UTC names only, as the months are UTC calendar months. */
  timezone: timezoneParam.optional(),
  /** pdf: the same report as a PDF document (as with Accept: application/pdf). */
  format: z.enum(['json', 'pdf']).optional(),
});

export type AffordabilityQuery = z.output<typeof affordabilityQuery>;

/** GET /v1/affordability/insights: the report's parameters and defaults, without its PDF format. */
export const insightsQuery = affordabilityQuery.omit({ format: true });
export type InsightsQuery = z.output<typeof insightsQuery>;

const transactionsLink = z.string().startsWith('/financial/v2/transactions?');
/** A summed figure links to its transactions; net income to the credits and debits it is the difference of. */
const figureLinks = z.union([
  z.object({ transactions: transactionsLink }),
  z.object({ credits: transactionsLink, debits: transactionsLink }),
]);
const yearMonth = z.string().regex(/^\d{4}-\d{2}$/);
const count = z.number().int().nonnegative();

const figureOut = z.object({
  overall_total: moneyOut,
  monthly_average: moneyOut,
  predicted_monthly: moneyOut,
  transaction_count: count,
  monthly_totals: z.array(z.object({ month: yearMonth, amount: moneyOut, transaction_count: count, _links: figureLinks })),
  by_bucket_l2: z
    .array(z.object({ bucket_l2: z.string(), amount: moneyOut, transaction_count: count, _links: z.object({ transactions: transactionsLink }) }))
    .optional(),
  _links: figureLinks,
});

/** The reference's figures: one link for a sum, the reference's two for a difference. */
const referenceLinks = z.union([
  z.object({ transactions: transactionsLink }),
  z.object({ income_transactions: transactionsLink, expenditure_transactions: transactionsLink }),
]);
const referenceFigure = z.object({
  overall_total: moneyOut,
  predicted_monthly: moneyOut,
  transaction_count: count.optional(),
  monthly_totals: z.array(z.object({ month: yearMonth, amount: moneyOut, transaction_count: count.optional(), _links: referenceLinks })),
  _links: referenceLinks,
});
const flexibleFigure = referenceFigure.extend({ predicted_monthly_range: z.object({ low: moneyOut, high: moneyOut, average: moneyOut }) });

const reportData = z.object({
  months_assessed: z.object({ start: yearMonth, end: yearMonth, count }),
  accounts: z.object({
    connected: count,
    account_ids: z.array(z.string()),
    holder_names: z.array(z.string()),
    details: z.array(z.object({
      account_id: z.string(),
      account_name: z.string().nullable(),
      account_type: z.string().nullable(),
      provider: z.string().nullable(),
    })),
    missing_data: z.object({
      income: z.boolean(),
      expenditure: z.boolean(),
      income_months: z.array(yearMonth),
      expenditure_months: z.array(yearMonth),
    }),
  }),
  data_coverage: z.object({ start: yearMonth.nullable(), end: yearMonth.nullable(), months_with_data: z.array(yearMonth), count }),
  assessment: z.object({
    currency: z.string(),
    income: z.object({ total: figureOut, net: figureOut, net_disposable: referenceFigure, net_discretionary: referenceFigure }),
    expenditure: z.object({ essential: figureOut, non_essential: figureOut, fixed: referenceFigure, flexible: flexibleFigure }),
  }),
  insights: insightsData,
});

const reportMetadata = z.object({
  customer_id: z.string(),
  client_id: z.string(),
  month_from: yearMonth,
  month_to: yearMonth,
  currency: z.string(),
  account_ids: z.array(z.string()).nullable(),
  bucket_id: z.string(),
  generated_at: z.iso.datetime(),
  generator: z.object({ name: z.string(), version: z.string() }),
});

export const affordabilityReportJson = envelopeOf(OP_AFFORDABILITY_REPORT_GET, reportData, reportMetadata);

/** JSON by default; the PDF's bytes (application/pdf) when asked for. */
export const affordabilityResponse = z.union([
  affordabilityReportJson,
  z.instanceof(Buffer).meta({ description: 'application/pdf: the same report as an A4 document' }),
]);
