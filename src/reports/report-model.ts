import type { Money } from '../domain/money.js';
import { affordError } from '../domain/errors.js';
import type { InsightsData } from './insights-model.js';

/**
 * The affordability report: the shape in docs/compatibility.md, with its
 * figures taken through core-dashboard (docs/taxonomy.md).
 * Everything here is plain data; the API serves it as is, the nightly job
 * stores it, the PDF prints its strings.
 */

export const REPORT_OPERATION_ID = 'v1_affordability_report';

/** The figures summed straight from one bucket L1 in one direction. */
export type SummedFigure = 'income' | 'essential' | 'non_essential';
export type FigureName = SummedFigure | 'net';

export interface FigureSource {
  figure: SummedFigure;
  bucket_l1: string;
  direction: 'credit' | 'debit';
}

/**
 * Income is what came in to the `income` bucket; expenditure is what went
 * out of `essentials` and `non_essentials`. Credits in an expenditure bucket
 * (a shop's refund) do not reduce expenditure, and debits in `income` do not
 * reduce income: the report shows gross flows, and a lender sees each one
 * behind its link. Refunds categorised banking/refunds_and_reversals sit in
 * `general`, and transfers between own accounts in `transfers`: neither counts.
 */
export const FIGURE_SOURCES: readonly FigureSource[] = [
  { figure: 'income', bucket_l1: 'income', direction: 'credit' },
  { figure: 'essential', bucket_l1: 'essentials', direction: 'debit' },
  { figure: 'non_essential', bucket_l1: 'non_essentials', direction: 'debit' },
];

export function figureSource(figure: SummedFigure): FigureSource {
  const source = FIGURE_SOURCES.find((f) => f.figure === figure);
  if (!source) throw affordError('FIGURE_SOURCE_MISSING', figure);
  return source;
}

export type { ReportRequest } from './report-request.js';

/**
 * A summed figure links to the transaction list that sums to it. Net income
 * is a difference, which no single list can show: its `credits` sum minus its
 * `debits` sum gives it.
 */
export type FigureLinks = { transactions: string } | { credits: string; debits: string };

export interface MonthlyTotal {
  month: string;
  amount: Money;
  transaction_count: number;
  _links: FigureLinks;
}

export interface BucketL2Total {
  bucket_l2: string;
  amount: Money;
  transaction_count: number;
  _links: { transactions: string };
}

export interface Figure {
  overall_total: Money;
  /** overall_total / months in the range, half-up to 2 places. */
  monthly_average: Money;
  /** What a typical month comes to: the median of monthly_totals, half-up to 2 places. */
  predicted_monthly: Money;
  transaction_count: number;
  monthly_totals: MonthlyTotal[];
  /** The figure split by core-dashboard bucket L2; absent for net income. */
  by_bucket_l2?: BucketL2Total[];
  _links: FigureLinks;
}

/** An account of the report, by name and type as its account event gave them. */
export interface AccountDetail {
  account_id: string;
  /** Null for an account that only transactions name so far. */
  account_name: string | null;
  account_type: string | null;
  provider: string | null;
}

/** A month of a reference figure; a difference has no transaction count. */
export interface ReferenceMonth {
  month: string;
  amount: Money;
  transaction_count?: number;
  _links: ReferenceLinks;
}

/** A difference links both sides, under the reference's names. */
export type ReferenceLinks = { transactions: string } | { income_transactions: string; expenditure_transactions: string };

/**
 * The reference API's figures (net_disposable, net_discretionary, fixed,
 * flexible), beside afford's own: computed from the insights' classification
 * (rules/insights.json), each with its months and links. README, "How each
 * report figure is computed", gives the formulas.
 */
export interface ReferenceFigure {
  overall_total: Money;
  predicted_monthly: Money;
  transaction_count?: number;
  monthly_totals: ReferenceMonth[];
  _links: ReferenceLinks;
}

export interface FlexibleFigure extends ReferenceFigure {
  /** The lowest and highest month of the range, and the monthly average. */
  predicted_monthly_range: { low: Money; high: Money; average: Money };
}

export interface ReportData {
  months_assessed: { start: string; end: string; count: number };
  accounts: {
    connected: number;
    account_ids: string[];
    holder_names: string[];
    /** Each account of account_ids with its name, type and provider. */
    details: AccountDetail[];
    /** true when some month of the range has no income (no expenditure); the months are listed beside. */
    missing_data: { income: boolean; expenditure: boolean; income_months: string[]; expenditure_months: string[] };
  };
  /** The months of the range that hold any transaction at all; start/end null when none does. */
  data_coverage: { start: string | null; end: string | null; months_with_data: string[]; count: number };
  assessment: {
    currency: string;
    income: { total: Figure; net: Figure; net_disposable: ReferenceFigure; net_discretionary: ReferenceFigure };
    expenditure: { essential: Figure; non_essential: Figure; fixed: ReferenceFigure; flexible: FlexibleFigure };
  };
  /** Income streams, commitments, disposable income and risk signals for the same customer and range. */
  insights: InsightsData;
}

export interface ReportMetadata {
  customer_id: string;
  client_id: string;
  month_from: string;
  month_to: string;
  currency: string;
  account_ids: string[] | null;
  bucket_id: string;
  generated_at: string;
  generator: { name: string; version: string };
}

/** The response body of GET /v1/affordability/report, also what the nightly job stores. */
export interface AffordabilityReport {
  operation_id: typeof REPORT_OPERATION_ID;
  data: ReportData;
  metadata: ReportMetadata;
}

/** Every figure of a report with a label, in the order the PDF prints them. */
export function reportFigures(data: ReportData): Array<{ name: FigureName; label: string; figure: Figure }> {
  const a = data.assessment;
  return [
    { name: 'income', label: 'Total income', figure: a.income.total },
    { name: 'essential', label: 'Essential expenditure', figure: a.expenditure.essential },
    { name: 'non_essential', label: 'Non-essential expenditure', figure: a.expenditure.non_essential },
    { name: 'net', label: 'Net income (income - essential)', figure: a.income.net },
  ];
}
