import { monthCount } from '../domain/months.js';
import type { Commitment, CommitmentKind, Frequency, IncomeSource, IncomeStream } from './insights-model.js';
import type { InsightGroup } from './insights-repository.js';
import { compareAmounts, consistency, median, predictedMonthly, totalOf, type FigureContext } from './insights-figures.js';
import { perYear, type InsightRules } from './insights-rules.js';

/** Income streams and commitments from the SQL groups (queries/insights/groups). */

function common(ctx: FigureContext, rules: InsightRules, g: InsightGroup) {
  const frequency = g.frequency as Frequency;
  const total = totalOf(ctx, g.key);
  return {
    name: g.name,
    frequency,
    months_present: g.months_present,
    amount_consistency: consistency(g.amounts, ctx.currency, rules.regularity.consistent_spread_percent),
    last_date: g.last_date,
    next_expected_date: g.next_expected_date,
    predicted_monthly: predictedMonthly(median(g.amounts), perYear(rules, frequency), total.overall_total.value, monthCount(ctx.range), ctx.currency),
    total,
  };
}

/** Biggest first, then by id, so the order is stable. */
function byPredicted<T extends { predicted_monthly: { value: string } }>(id: (t: T) => string) {
  return (a: T, b: T) => compareAmounts(b.predicted_monthly.value, a.predicted_monthly.value) || id(a).localeCompare(id(b));
}

export function incomeStreams(ctx: FigureContext, rules: InsightRules, groups: readonly InsightGroup[]): IncomeStream[] {
  return groups
    .filter((g) => g.key.startsWith('stream:'))
    .map((g) => {
      const source = g.key.split(':')[1] ?? 'other';
      const base = common(ctx, rules, g);
      return {
        stream_id: g.key,
        ...base,
        source: source as IncomeSource,
        verified: base.frequency !== 'irregular' && base.months_present.length >= rules.regularity.verified_min_months,
      };
    })
    .sort(byPredicted((s) => s.stream_id));
}

export function commitments(ctx: FigureContext, rules: InsightRules, groups: readonly InsightGroup[]): Commitment[] {
  return groups
    .filter((g) => g.key.startsWith('commitment:'))
    .map((g) => ({ commitment_id: g.key, kind: (g.key.split(':')[1] ?? 'loan') as CommitmentKind, ...common(ctx, rules, g) }))
    .sort(byPredicted((c) => c.commitment_id));
}
