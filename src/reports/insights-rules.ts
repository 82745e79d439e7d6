import { z } from 'zod';
import { rulesFile } from '../db/rules-files.js';
import type { Frequency, IncomeSource, SignalName } from './insights-model.js';

/**
 * rules/insights.json, checked once, and flattened into the JSON parameters
 * the insights SQL binds. The rules are data: this file only reads them.
 */

const pair = z.string().regex(/^[a-z_]+\/[a-z_]+$/);
const pattern = z.string().regex(/^[a-z]+( [a-z]+)*$/, 'lower-case words separated by single spaces');
const decimal = z.string().regex(/^\d+(\.\d+)?$/);
const signalRule = z.object({ source: z.string().min(1), direction: z.enum(['credit', 'debit']), pairs: z.array(pair), patterns: z.array(pattern) });

const SIGNAL_NAMES = [
  'gambling_share_of_income', 'high_cost_credit', 'returned_direct_debits', 'days_in_overdraft', 'new_borrowing', 'cash_share_of_spending',
] as const satisfies readonly SignalName[];

const rulesSchema = z.object({
  version: z.string().min(1),
  income_sources: z.object({
    source: z.string().min(1),
    categories: z.array(z.object({ category_l2: z.string(), source: z.enum(['salary', 'benefits', 'pension', 'gig', 'other']) })),
  }),
  commitments: z.object({
    source: z.string().min(1),
    rules: z.array(z.object({
      kind: z.enum(['rent', 'mortgage', 'council_tax', 'utilities', 'loan', 'credit_card', 'insurance', 'subscription', 'bnpl']),
      pairs: z.array(pair).default([]),
      patterns: z.array(pattern).default([]),
    })),
  }),
  signals: z.object({
    gambling: signalRule,
    high_cost_credit: signalRule,
    new_borrowing: signalRule,
    returned_direct_debit: signalRule,
    unpaid_fee: signalRule,
    cash_withdrawal: signalRule,
  }),
  regularity: z.object({
    source: z.string().min(1),
    bands: z.array(z.object({
      frequency: z.enum(['weekly', 'fortnightly', 'four_weekly', 'monthly']),
      min_days: z.number().int().nonnegative(),
      max_days: z.number().int().positive(),
      interval_days: z.number().int().nonnegative(),
      per_year: z.number().int().positive(),
    })),
    min_share_in_band: decimal,
    min_occurrences: z.number().int().min(2),
    /**
     * The fewest payments of a regular commitment: fewer than a stream's, as a
     * commitment that began late in the range (a new loan, a new tenancy)
     * taken as irregular was averaged over every month and understated. Below
     * min_occurrences, monthly only (sql/queries/insights/groups.sql).
     */
    commitment_min_occurrences: z.number().int().min(2),
    verified_min_months: z.number().int().min(1),
    /** Days past its next expected date, at the end of the range, after which a regular stream has ended. */
    ended_after_days: z.number().int().min(0),
    consistent_spread_percent: decimal,
  }),
  thresholds: z.object(Object.fromEntries(SIGNAL_NAMES.map((n) => [n, decimal])) as Record<SignalName, typeof decimal>),
});

export type InsightRules = z.infer<typeof rulesSchema>;

let loaded: InsightRules | undefined;

export function insightRules(): InsightRules {
  loaded ??= rulesSchema.parse(rulesFile('insights'));
  return loaded;
}

/** The keys a transaction can carry for the signals, each the `insight` value of its link. */
export type SignalKey = keyof InsightRules['signals'];

export function incomeSourceOf(rules: InsightRules, categoryL2: string): IncomeSource {
  return rules.income_sources.categories.find((c) => c.category_l2 === categoryL2)?.source ?? 'other';
}

export function perYear(rules: InsightRules, frequency: Frequency): number | null {
  return rules.regularity.bands.find((b) => b.frequency === frequency)?.per_year ?? null;
}

const split = (p: string) => {
  const [category_l1, category_l2] = p.split('/') as [string, string];
  return { category_l1, category_l2 };
};

/** The rules as the JSON parameters of sql/queries/insights/scope.sql. */
export function insightRuleParams(rules: InsightRules = insightRules()): Record<string, string> {
  const signalPairs = Object.entries(rules.signals).flatMap(([key, r]) => r.pairs.map((p) => ({ key, direction: r.direction, ...split(p) })));
  const signalPatterns = Object.entries(rules.signals).flatMap(([key, r]) => r.patterns.map((p) => ({ key, direction: r.direction, pattern: p })));
  const commitmentPairs = rules.commitments.rules.flatMap((r, priority) => r.pairs.map((p) => ({ kind: r.kind, priority, ...split(p) })));
  const commitmentPatterns = rules.commitments.rules.flatMap((r, priority) => r.patterns.map((p) => ({ kind: r.kind, priority, pattern: p })));
  return {
    income_sources: JSON.stringify(rules.income_sources.categories),
    signal_pairs: JSON.stringify(signalPairs),
    signal_patterns: JSON.stringify(signalPatterns),
    commitment_pairs: JSON.stringify(commitmentPairs),
    commitment_patterns: JSON.stringify(commitmentPatterns),
  };
}

/** The regularity rules as the parameters of sql/queries/insights/groups.sql. */
export function regularityParams(rules: InsightRules = insightRules()): Record<string, string | number> {
  return {
    bands: JSON.stringify(rules.regularity.bands.map((b, priority) => ({ ...b, priority }))),
    min_share: rules.regularity.min_share_in_band,
    min_occurrences: rules.regularity.min_occurrences,
    commitment_min_occurrences: rules.regularity.commitment_min_occurrences,
  };
}
