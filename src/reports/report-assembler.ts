import { CORE_DASHBOARD_ID } from '../domain/core-dashboard.js';
import { monthlyAverage, type Money } from '../domain/money.js';
import { monthCount } from '../domain/months.js';
import { GENERATOR } from './generator-version.js';
import { transactionsLink, type LinkScope } from './report-links.js';
import {
  REPORT_OPERATION_ID,
  figureSource,
  type AffordabilityReport,
  type Figure,
  type FigureLinks,
  type FigureName,
  type ReportRequest,
  type SummedFigure,
} from './report-model.js';
import type { CustomerReportRows, FigureCell } from './report-repository.js';
import { affordError } from '../domain/errors.js';
import { assembleInsights } from './insights-assembler.js';
import type { CustomerInsightRows } from './insights-repository.js';
import { medianOfMonths, referenceFigures } from './report-reference-figures.js';
import { moneyOf, monthsOf } from './plain-amounts.js';

const NO_INSIGHTS: CustomerInsightRows = { cellsByRange: new Map(), groupsByRange: new Map(), overdraftByRange: new Map() };

/**
 * Turns the SQL rows of one customer and range into the report. The sums
 * are SQL's; the only arithmetic here is the monthly average (exact, in
 * pence, half-up). Everything else is arranging strings and building links.
 */

export interface AssembleInput {
  request: ReportRequest;
  rows: CustomerReportRows;
  rangeKey: string;
  /** ISO instant; one per nightly run, so all its reports agree. */
  generatedAt: string;
}

const TWO_PLACES = /^-?\d+\.\d{2}$/;

/** SQL gives DECIMAL(38,2) text, already in the API's form; anything else goes through decimal.js. */
function amount(value: string, currency: string): Money {
  return TWO_PLACES.test(value) ? { value, currency } : moneyOf(value, currency);
}

function cellsOf(cells: readonly FigureCell[], figure: FigureName) {
  const mine = cells.filter((c) => c.figure === figure);
  const overall = mine.find((c) => c.month === null && c.bucket_l2 === null);
  if (!overall) throw affordError('REPORT_ROWS_INCOMPLETE', `no overall total for figure ${figure}`);
  return {
    overall,
    monthly: new Map(mine.filter((c) => c.month !== null).map((c) => [c.month as string, c])),
    byBucketL2: mine.filter((c) => c.bucket_l2 !== null),
  };
}

function linksFor(figure: FigureName, scope: LinkScope): FigureLinks {
  if (figure === 'net') {
    return { credits: transactionsLink(figureSource('income'), scope), debits: transactionsLink(figureSource('essential'), scope) };
  }
  return { transactions: transactionsLink(figureSource(figure), scope) };
}

function buildFigure(figure: FigureName, cells: readonly FigureCell[], request: ReportRequest): Figure {
  const { overall, monthly, byBucketL2 } = cellsOf(cells, figure);
  const { currency, range, accountIds } = request;
  const scope = (months = range): LinkScope => ({ months, currency, accountIds });
  const result: Omit<Figure, '_links'> = {
    overall_total: amount(overall.total, currency),
    monthly_average: moneyOf(monthlyAverage(overall.total, monthCount(range)), currency),
    predicted_monthly: medianOfMonths(monthsOf(range).map((month) => amount(monthly.get(month)?.total ?? '0', currency)), currency),
    transaction_count: overall.transaction_count,
    monthly_totals: monthsOf(range).map((month) => {
      const cell = monthly.get(month);
      if (!cell) throw affordError('REPORT_ROWS_INCOMPLETE', `figure ${figure} has no row for ${month}`);
      return {
        month,
        amount: amount(cell.total, currency),
        transaction_count: cell.transaction_count,
        _links: linksFor(figure, scope({ from: month, to: month })),
      };
    }),
  };
  if (figure !== 'net') {
    const source = figureSource(figure as SummedFigure);
    result.by_bucket_l2 = byBucketL2.map((c) => ({
      bucket_l2: c.bucket_l2 as string,
      amount: amount(c.total, currency),
      transaction_count: c.transaction_count,
      _links: { transactions: transactionsLink(source, scope(), c.bucket_l2 as string) },
    }));
  }
  // Set last so that it reads last in the JSON, as in every other resource.
  return { ...result, _links: linksFor(figure, scope()) };
}

export function assembleReport(input: AssembleInput): AffordabilityReport {
  const { request, rows, rangeKey, generatedAt } = input;
  const cells = rows.cellsByRange.get(rangeKey) ?? [];
  const coverage = rows.coverageByRange.get(rangeKey);
  if (!coverage) throw affordError('REPORT_ROWS_INCOMPLETE', `no coverage row for range ${rangeKey}`);
  const withData = coverage.months_with_data;
  const insights = assembleInsights({ request, rows: rows.insights ?? NO_INSIGHTS, rangeKey, generatedAt }).data;
  const income = { total: buildFigure('income', cells, request), net: buildFigure('net', cells, request) };
  const expenditure = { essential: buildFigure('essential', cells, request), non_essential: buildFigure('non_essential', cells, request) };
  const { net_disposable, net_discretionary, fixed, flexible } = referenceFigures(insights, expenditure.essential);
  return {
    operation_id: REPORT_OPERATION_ID,
    data: {
      months_assessed: { start: request.range.from, end: request.range.to, count: monthCount(request.range) },
      accounts: {
        connected: rows.accounts.account_ids.length,
        account_ids: rows.accounts.account_ids,
        holder_names: rows.accounts.holder_names,
        details: rows.accounts.account_details,
        missing_data: {
          income: coverage.months_without_income.length > 0,
          expenditure: coverage.months_without_expenditure.length > 0,
          income_months: coverage.months_without_income,
          expenditure_months: coverage.months_without_expenditure,
        },
      },
      data_coverage: { start: withData[0] ?? null, end: withData.at(-1) ?? null, months_with_data: withData, count: withData.length },
      assessment: {
        currency: request.currency,
        income: { ...income, net_disposable, net_discretionary },
        expenditure: { ...expenditure, fixed, flexible },
      },
      insights,
    },
    metadata: {
      customer_id: request.customerId,
      client_id: request.clientId,
      month_from: request.range.from,
      month_to: request.range.to,
      currency: request.currency,
      account_ids: request.accountIds ? [...request.accountIds] : null,
      bucket_id: CORE_DASHBOARD_ID,
      generated_at: generatedAt,
      generator: { name: GENERATOR.name, version: GENERATOR.version },
    },
  };
}
