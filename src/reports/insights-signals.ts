import type { RiskSignal, SignalName } from './insights-model.js';
import type { OverdraftRow } from './insights-repository.js';
import { atLeast, insightLink, sharePercent, totalOf, type FigureContext } from './insights-figures.js';
import type { InsightRules } from './insights-rules.js';
import { moneyOf } from './plain-amounts.js';

/**
 * The risk signals: each a value against the rules' threshold, with the
 * transactions behind it. A share links its denominator too.
 */

interface SignalSpec {
  name: SignalName;
  label: string;
  unit: RiskSignal['unit'];
  key: string;
}

const SPECS: readonly SignalSpec[] = [
  { name: 'gambling_share_of_income', label: 'Gambling as a share of income', unit: 'percent', key: 'gambling' },
  { name: 'high_cost_credit', label: 'Credits from high-cost or payday lenders', unit: 'count', key: 'high_cost_credit' },
  { name: 'returned_direct_debits', label: 'Returned or unpaid direct debits', unit: 'count', key: 'returned_direct_debit' },
  { name: 'days_in_overdraft', label: 'Days in overdraft', unit: 'days', key: 'overdrawn' },
  { name: 'new_borrowing', label: 'New borrowing (loan credits)', unit: 'count', key: 'new_borrowing' },
  { name: 'cash_share_of_spending', label: 'Cash withdrawals as a share of spending', unit: 'percent', key: 'cash_withdrawal' },
];

export function riskSignals(ctx: FigureContext, rules: InsightRules, overdraft: OverdraftRow | undefined): RiskSignal[] {
  const income = totalOf(ctx, 'income').overall_total.value;
  const spending = totalOf(ctx, 'expenditure').overall_total.value;
  return SPECS.map((spec) => {
    const figure = totalOf(ctx, spec.key);
    const threshold = rules.thresholds[spec.name];
    let value = String(figure.transaction_count);
    const links: RiskSignal['_links'] = { transactions: figure._links.transactions };
    const signal: Omit<RiskSignal, 'value' | 'flagged' | '_links'> = {
      name: spec.name, label: spec.label, unit: spec.unit, threshold,
      amount: figure.overall_total, transaction_count: figure.transaction_count,
    };
    if (spec.name === 'gambling_share_of_income') {
      value = sharePercent(figure.overall_total.value, income);
      links.denominator = insightLink(ctx, ['income']);
    } else if (spec.name === 'cash_share_of_spending') {
      value = sharePercent(figure.overall_total.value, spending);
      links.denominator = insightLink(ctx, ['expenditure']);
    } else if (spec.name === 'days_in_overdraft') {
      value = String(overdraft?.days ?? 0);
      signal.detail = { deepest_balance: overdraft?.deepest_balance ? moneyOf(overdraft.deepest_balance, ctx.currency) : null };
    } else if (spec.name === 'returned_direct_debits') {
      const fees = totalOf(ctx, 'unpaid_fee');
      signal.detail = { fees: { amount: fees.overall_total, transaction_count: fees.transaction_count, _links: fees._links } };
    }
    return { ...signal, value, flagged: atLeast(value, threshold), _links: links };
  });
}
