import { z } from 'zod';
import { INSIGHTS_OPERATION_ID } from '../../reports/insights-model.js';
import { envelopeOf, moneyOut } from './common.js';

export const OP_AFFORDABILITY_INSIGHTS_GET = INSIGHTS_OPERATION_ID;

const link = z.string().startsWith('/financial/v2/transactions?');
const links = z.object({ transactions: link });
const yearMonth = z.string().regex(/^\d{4}-\d{2}$/);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const count = z.number().int().nonnegative();
const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/);
const frequency = z.enum(['weekly', 'fortnightly', 'four_weekly', 'monthly', 'irregular']);

const month = z.object({ month: yearMonth, amount: moneyOut, transaction_count: count, _links: links });
const figure = z.object({ overall_total: moneyOut, transaction_count: count, monthly_totals: z.array(month), _links: links });
const total = z.object({ overall_total: moneyOut, transaction_count: count, _links: links });
const predicted = z.object({ predicted_monthly: moneyOut, total: figure });
const consistency = z.object({ min: moneyOut, max: moneyOut, median: moneyOut, spread_percent: decimalText, consistent: z.boolean() });
const regular = {
  name: z.string(),
  frequency,
  months_present: z.array(yearMonth),
  amount_consistency: consistency,
  last_date: day,
  next_expected_date: day.nullable(),
  predicted_monthly: moneyOut,
  total,
};

export const insightsData = z.object({
  months_assessed: z.object({ start: yearMonth, end: yearMonth, count }),
  currency: z.string(),
  income: z.object({
    total: figure,
    excluding_benefits: figure,
    verified: predicted,
    unverified: predicted,
    streams: z.array(z.object({ stream_id: z.string(), ...regular, source: z.enum(['salary', 'benefits', 'pension', 'gig', 'other']), verified: z.boolean(), ended: z.boolean() })),
  }),
  expenditure: z.object({
    total: figure,
    fixed: predicted,
    flexible: predicted,
    commitments: z.array(z.object({
      commitment_id: z.string(),
      kind: z.enum(['rent', 'mortgage', 'council_tax', 'utilities', 'loan', 'credit_card', 'insurance', 'subscription', 'bnpl']),
      ...regular,
    })),
  }),
  disposable_income: z.object({
    overall_total: moneyOut,
    monthly_average: moneyOut,
    deficit: z.boolean(),
    deficit_months: z.array(yearMonth),
    monthly_totals: z.array(z.object({ month: yearMonth, amount: moneyOut, deficit: z.boolean(), _links: z.object({ income: link, expenditure: link }) })),
    _links: z.object({ income: link, expenditure: link }),
  }),
  risk_signals: z.array(z.object({
    name: z.string(),
    label: z.string(),
    unit: z.enum(['percent', 'count', 'days', 'amount']),
    value: decimalText,
    threshold: decimalText,
    flagged: z.boolean(),
    amount: moneyOut,
    transaction_count: count,
    detail: z.object({
      deepest_balance: moneyOut.nullable().optional(),
      fees: z.object({ amount: moneyOut, transaction_count: count, _links: links }).optional(),
    }).optional(),
    _links: z.object({ transactions: link, denominator: link.optional() }),
  })),
  flags: z.array(z.string()),
});

const insightsMetadata = z.object({
  customer_id: z.string(),
  client_id: z.string(),
  month_from: yearMonth,
  month_to: yearMonth,
  currency: z.string(),
  account_ids: z.array(z.string()).nullable(),
  generated_at: z.iso.datetime(),
  rules_version: z.string(),
});

export const insightsResponse = envelopeOf(OP_AFFORDABILITY_INSIGHTS_GET, insightsData, insightsMetadata);
