import { monthlyAverage, type Money } from '../domain/money.js';
export { medianOfMonths } from './insights-figures.js';
import { monthCount } from '../domain/months.js';
import type { InsightFigure, InsightsData } from './insights-model.js';
import { compareAmounts, minus, sumMoney } from './insights-figures.js';
import type { Figure, FlexibleFigure, ReferenceFigure, ReportData } from './report-model.js';
import { moneyOf } from './plain-amounts.js';

/**
 * The reference API's report figures, from the insights of the same range:
 *   net_disposable     income except benefits (the report's income is already after tax);
 *                      predicted: the predicted months of its streams, summed
 *   net_discretionary  net_disposable - essential expenditure, month by month;
 *                      predicted: the difference of the two predicted months
 *   fixed              the committed spending (rules/insights.json commitments);
 *                      predicted: the commitments' predicted months, summed
 *   flexible           all other spending; predicted: the median month, and
 *                      the range low (lowest month), high (highest) and average
 */

function fromInsight(figure: InsightFigure, predicted: Money): ReferenceFigure {
  return {
    overall_total: figure.overall_total,
    predicted_monthly: predicted,
    transaction_count: figure.transaction_count,
    monthly_totals: figure.monthly_totals,
    _links: figure._links,
  };
}

function linkOf(links: Figure['_links']): string {
  return 'transactions' in links ? links.transactions : links.credits;
}

type ReferenceFigures = Pick<ReportData['assessment']['income'], 'net_disposable' | 'net_discretionary'> &
  Pick<ReportData['assessment']['expenditure'], 'fixed' | 'flexible'>;

export function referenceFigures(insights: InsightsData, essential: Figure): ReferenceFigures {
  const currency = insights.currency;
  const earned = insights.income.streams.filter((s) => s.source !== 'benefits');
  const net_disposable = fromInsight(insights.income.excluding_benefits, sumMoney(earned.map((s) => s.predicted_monthly), currency));
  const disposableLink = insights.income.excluding_benefits._links.transactions;
  const net_discretionary: ReferenceFigure = {
    overall_total: moneyOf(minus(net_disposable.overall_total.value, essential.overall_total.value), currency),
    predicted_monthly: moneyOf(minus(net_disposable.predicted_monthly.value, essential.predicted_monthly.value), currency),
    monthly_totals: net_disposable.monthly_totals.map((m, i) => {
      const spent = essential.monthly_totals[i];
      return {
        month: m.month,
        amount: moneyOf(minus(m.amount.value, spent?.amount.value ?? '0'), currency),
        _links: { income_transactions: insights.income.excluding_benefits.monthly_totals[i]?._links.transactions ?? disposableLink, expenditure_transactions: spent ? linkOf(spent._links) : '' },
      };
    }),
    _links: { income_transactions: disposableLink, expenditure_transactions: linkOf(essential._links) },
  };
  const flexibleFigure = insights.expenditure.flexible.total;
  const monthly = flexibleFigure.monthly_totals.map((m) => m.amount.value).sort(compareAmounts);
  const flexible: FlexibleFigure = {
    ...fromInsight(flexibleFigure, insights.expenditure.flexible.predicted_monthly),
    predicted_monthly_range: {
      low: moneyOf(monthly[0] ?? '0', currency),
      high: moneyOf(monthly.at(-1) ?? '0', currency),
      average: moneyOf(monthlyAverage(flexibleFigure.overall_total.value, monthCount({ from: insights.months_assessed.start, to: insights.months_assessed.end })), currency),
    },
  };
  return { net_disposable, net_discretionary, fixed: fromInsight(insights.expenditure.fixed.total, insights.expenditure.fixed.predicted_monthly), flexible };
}
