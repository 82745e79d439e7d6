import type { Money } from '../domain/money.js';
import type { Store } from '../db/store.js';
import type { ReportRequest } from './report-request.js';

/**
 * What an underwriter reads before lending: income streams, committed
 * spending, disposable income and risk signals, for one customer and a
 * range of whole months (the same request as the affordability report).
 *
 * SQL groups and sums (sql/queries/insights/); the rules it applies (which
 * categories and descriptions are what, the thresholds) are data in
 * rules/insights.json, with their sources. Every figure and signal links to
 * exactly the transactions behind it: the link names the figure's insight
 * key(s) (`insight=...`), the range, the currency and the accounts, and the
 * transaction list returns exactly those transactions.
 *
 * Everything here is plain data: the API serves it, the nightly job stores
 * it (affordability_insights), the report embeds it, the PDF prints it.
 */

export const INSIGHTS_OPERATION_ID = 'v1_affordability_insights_get';

/** Who and what the insights are for: the report's request. */
export type InsightsRequest = ReportRequest;

export interface TransactionsLinks {
  transactions: string;
}

/** One month of a figure: every month of the range is present, zeros included. */
export interface InsightMonth {
  month: string;
  amount: Money;
  transaction_count: number;
  _links: TransactionsLinks;
}

/** A summed figure: its total over the range, month by month, and its transactions. */
export interface InsightFigure {
  overall_total: Money;
  transaction_count: number;
  monthly_totals: InsightMonth[];
  _links: TransactionsLinks;
}

/**
 * A total without its months: streams, commitments and signals are many, and
 * their months would multiply every stored report; their link lists the
 * transactions, dated.
 */
export interface InsightTotal {
  overall_total: Money;
  transaction_count: number;
  _links: TransactionsLinks;
}

export type IncomeSource = 'salary' | 'benefits' | 'pension' | 'gig' | 'other';
export type Frequency = 'weekly' | 'fortnightly' | 'four_weekly' | 'monthly' | 'irregular';

/** How steady a stream's or commitment's amounts are. */
export interface AmountConsistency {
  min: Money;
  max: Money;
  median: Money;
  /** (max - min) / median as a percentage, 2 places, e.g. "4.20". */
  spread_percent: string;
  /** spread_percent within the rules' threshold. */
  consistent: boolean;
}

export interface IncomeStream {
  /** Stable within a customer: the normalised counterparty (or description) the credits share. */
  stream_id: string;
  /** The description most of its credits carry. */
  name: string;
  source: IncomeSource;
  frequency: Frequency;
  /** YYYY-MM months of the range in which it paid at least once. */
  months_present: string[];
  amount_consistency: AmountConsistency;
  /** ISO date (YYYY-MM-DD) of the last credit in the range. */
  last_date: string;
  /** The last date plus the frequency's interval; null when irregular. */
  next_expected_date: string | null;
  /** What it brings in a month: the median amount scaled by the frequency (total / months when irregular). */
  predicted_monthly: Money;
  /**
   * Regular (not irregular), present in at least the rules' minimum number
   * of months (3), and not ended.
   */
  verified: boolean;
  /**
   * A regular stream whose next expected payment is more than the rules'
   * days (7) overdue at the end of the range: it has stopped (a job left, a
   * benefit ended), so its predicted month is 0.00 and it is not verified.
   */
  ended: boolean;
  total: InsightTotal;
}

export interface IncomeInsights {
  /** Every credit of the income streams (the core-dashboard `income` bucket). */
  total: InsightFigure;
  /** The same without benefits: the reference's net disposable income. */
  excluding_benefits: InsightFigure;
  verified: { predicted_monthly: Money; total: InsightFigure };
  unverified: { predicted_monthly: Money; total: InsightFigure };
  streams: IncomeStream[];
}

export type CommitmentKind =
  | 'rent' | 'mortgage' | 'council_tax' | 'utilities' | 'loan' | 'credit_card' | 'insurance' | 'subscription' | 'bnpl';

/** A group of regular debits to one payee of one kind. */
export interface Commitment {
  commitment_id: string;
  kind: CommitmentKind;
  name: string;
  frequency: Frequency;
  months_present: string[];
  amount_consistency: AmountConsistency;
  last_date: string;
  next_expected_date: string | null;
  predicted_monthly: Money;
  total: InsightTotal;
}

export interface ExpenditureInsights {
  /** Every spending debit: all debits but transfers (the core-dashboard `transfers` bucket). */
  total: InsightFigure;
  /** Debits of the commitment kinds: the fixed commitments. */
  fixed: { predicted_monthly: Money; total: InsightFigure };
  /** The rest of the spending. */
  flexible: { predicted_monthly: Money; total: InsightFigure };
  commitments: Commitment[];
}

/** Income minus all expenditure, per month and overall; negative is a deficit. */
export interface DisposableMonth {
  month: string;
  amount: Money;
  deficit: boolean;
  _links: { income: string; expenditure: string };
}

export interface DisposableIncome {
  overall_total: Money;
  monthly_average: Money;
  deficit: boolean;
  /** Months of the range in deficit. */
  deficit_months: string[];
  monthly_totals: DisposableMonth[];
  _links: { income: string; expenditure: string };
}

export type SignalName =
  | 'gambling_share_of_income'
  | 'high_cost_credit'
  | 'returned_direct_debits'
  | 'days_in_overdraft'
  | 'new_borrowing'
  | 'cash_share_of_spending';

/**
 * One risk signal: `value` against `threshold`, `flagged` when the value
 * reaches it. `value` is a decimal string: a percentage for shares, a count
 * or a number of days otherwise (`unit` says which). `amount` is the sum of
 * the transactions behind it, which its link returns.
 */
export interface RiskSignal {
  name: SignalName;
  label: string;
  unit: 'percent' | 'count' | 'days' | 'amount';
  value: string;
  threshold: string;
  flagged: boolean;
  amount: Money;
  transaction_count: number;
  /** Signal-specific extras: the lowest balance for the overdraft, the fees for returned direct debits. */
  detail?: {
    deepest_balance?: Money | null;
    fees?: { amount: Money; transaction_count: number; _links: TransactionsLinks };
  };
  /** transactions: those behind `amount`; for a share, also the denominator's. */
  _links: TransactionsLinks & { denominator?: string };
}

export interface InsightsData {
  months_assessed: { start: string; end: string; count: number };
  currency: string;
  income: IncomeInsights;
  expenditure: ExpenditureInsights;
  disposable_income: DisposableIncome;
  risk_signals: RiskSignal[];
  /** The names of the flagged signals, in the order of risk_signals. */
  flags: SignalName[];
}

export interface InsightsMetadata {
  customer_id: string;
  client_id: string;
  month_from: string;
  month_to: string;
  currency: string;
  account_ids: string[] | null;
  generated_at: string;
  /** Version of rules/insights.json the figures were computed with. */
  rules_version: string;
}

/** The response body of GET /v1/affordability/insights, also what the nightly job stores. */
export interface AffordabilityInsights {
  operation_id: typeof INSIGHTS_OPERATION_ID;
  data: InsightsData;
  metadata: InsightsMetadata;
}

/**
 * The one way in (src/reports/insights-service.ts):
 *   buildInsights(store: Store, request: InsightsRequest, now?: Date): Promise<AffordabilityInsights | null>
 * null when the customer does not exist. The report JSON carries the same
 * object's `data` as `data.insights`.
 */
export type BuildInsights = (store: Store, request: InsightsRequest, now?: Date) => Promise<AffordabilityInsights | null>;
