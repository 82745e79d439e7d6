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

/** The last day of a YYYY-MM month, as YYYY-MM-DD. */
const lastDayOf = (month: string): string => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
};

/** The day `days` after a YYYY-MM-DD day. */
const daysAfter = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A regular stream has ended when its next expected payment is more than the
 * rules' days overdue on the range's last day: a salary that stopped in
 * April is no income in June, and neither is an old employer's after a
 * change of job.
 */
function hasEnded(rules: InsightRules, range: { to: string }, nextExpected: string | null): boolean {
  return nextExpected !== null && daysAfter(nextExpected, rules.regularity.ended_after_days) < lastDayOf(range.to);
}

export function incomeStreams(ctx: FigureContext, rules: InsightRules, groups: readonly InsightGroup[]): IncomeStream[] {
  return groups
    .filter((g) => g.key.startsWith('stream:'))
    .map((g) => {
      const source = g.key.split(':')[1] ?? 'other';
      const base = common(ctx, rules, g);
      const ended = hasEnded(rules, ctx.range, base.next_expected_date);
      return {
        stream_id: g.key,
        ...base,
        ...(ended ? { predicted_monthly: { value: '0.00', currency: ctx.currency } } : {}),
        source: source as IncomeSource,
        verified: !ended && base.frequency !== 'irregular' && base.months_present.length >= rules.regularity.verified_min_months,
        ended,
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
