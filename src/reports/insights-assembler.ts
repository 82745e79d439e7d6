import { monthlyAverage } from '../domain/money.js';
import { monthCount } from '../domain/months.js';
import type { AffordabilityInsights, DisposableIncome, InsightFigure, InsightsRequest } from './insights-model.js';
import { INSIGHTS_OPERATION_ID } from './insights-model.js';
import type { CustomerInsightRows } from './insights-repository.js';
import { cellsByKey, figureOf, insightLink, isNegative, medianOfMonths, minus, sumMoney, type FigureContext } from './insights-figures.js';
import { commitments, incomeStreams } from './insights-groups.js';
import { insightRules } from './insights-rules.js';
import { riskSignals } from './insights-signals.js';
import { moneyOf } from './plain-amounts.js';

/** Turns the SQL rows of one customer and range into the insights. */

export interface AssembleInsightsInput {
  request: InsightsRequest;
  rows: CustomerInsightRows;
  rangeKey: string;
  generatedAt: string;
}

function disposable(ctx: FigureContext, income: InsightFigure, spending: InsightFigure): DisposableIncome {
  const overall = minus(income.overall_total.value, spending.overall_total.value);
  const monthly_totals = income.monthly_totals.map((m, i) => {
    const amount = minus(m.amount.value, spending.monthly_totals[i]?.amount.value ?? '0');
    const months = { from: m.month, to: m.month };
    return {
      month: m.month,
      amount: moneyOf(amount, ctx.currency),
      deficit: isNegative(amount),
      _links: { income: insightLink(ctx, ['income'], months), expenditure: insightLink(ctx, ['expenditure'], months) },
    };
  });
  return {
    overall_total: moneyOf(overall, ctx.currency),
    monthly_average: moneyOf(monthlyAverage(overall, monthCount(ctx.range)), ctx.currency),
    deficit: isNegative(overall),
    deficit_months: monthly_totals.filter((m) => m.deficit).map((m) => m.month),
    monthly_totals,
    _links: { income: insightLink(ctx, ['income']), expenditure: insightLink(ctx, ['expenditure']) },
  };
}

export function assembleInsights(input: AssembleInsightsInput): AffordabilityInsights {
  const { request, rows, rangeKey, generatedAt } = input;
  const rules = insightRules();
  const { currency, range, accountIds } = request;
  const ctx: FigureContext = { range, currency, accountIds, cells: cellsByKey(rows.cellsByRange.get(rangeKey) ?? []) };
  const groups = rows.groupsByRange.get(rangeKey) ?? [];
  const streams = incomeStreams(ctx, rules, groups);
  const items = commitments(ctx, rules, groups);
  const verified = streams.filter((s) => s.verified);
  const unverified = streams.filter((s) => !s.verified);
  const income = figureOf(ctx, ['income']);
  const spending = figureOf(ctx, ['expenditure']);
  const flexible = figureOf(ctx, ['flexible']);
  const signals = riskSignals(ctx, rules, rows.overdraftByRange.get(rangeKey));
  return {
    operation_id: INSIGHTS_OPERATION_ID,
    data: {
      months_assessed: { start: range.from, end: range.to, count: monthCount(range) },
      currency,
      income: {
        total: income,
        excluding_benefits: figureOf(ctx, ['income_excluding_benefits']),
        verified: { predicted_monthly: sumMoney(verified.map((s) => s.predicted_monthly), currency), total: figureOf(ctx, verified.map((s) => s.stream_id)) },
        unverified: { predicted_monthly: sumMoney(unverified.map((s) => s.predicted_monthly), currency), total: figureOf(ctx, unverified.map((s) => s.stream_id)) },
        streams,
      },
      expenditure: {
        total: spending,
        fixed: { predicted_monthly: sumMoney(items.map((c) => c.predicted_monthly), currency), total: figureOf(ctx, ['fixed']) },
        flexible: { predicted_monthly: medianOfMonths(flexible.monthly_totals.map((m) => m.amount), currency), total: flexible },
        commitments: items,
      },
      disposable_income: disposable(ctx, income, spending),
      risk_signals: signals,
      flags: signals.filter((s) => s.flagged).map((s) => s.name),
    },
    metadata: {
      customer_id: request.customerId,
      client_id: request.clientId,
      month_from: range.from,
      month_to: range.to,
      currency,
      account_ids: accountIds ? [...accountIds] : null,
      generated_at: generatedAt,
      rules_version: rules.version,
    },
  };
}
