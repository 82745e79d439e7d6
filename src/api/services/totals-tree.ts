import { monthCount, type MonthRange } from '../../domain/months.js';
import { sumMinorUnits } from '../../domain/minor-units.js';
import { monthlyAverage, type Money } from '../../domain/money.js';
import { transactionsLink, type Direction } from '../../domain/transactions-link.js';
import type { TotalsCell } from '../repositories/monthly-totals.repository.js';
import type { GroupLevel } from '../schemas/bucket-totals.schemas.js';

export interface DirectionTotals {
  total: Money;
  monthly_average: Money;
  transaction_count: number;
  _links: { transactions: string };
}

export interface TotalsGroup {
  group_name: string;
  group_type: GroupLevel;
  incoming: DirectionTotals;
  outgoing: DirectionTotals;
  transaction_count: number;
  _links: { transactions: string };
  subtotals?: TotalsGroup[];
}

export interface TotalsTreeInput {
  bucketId: string;
  levels: readonly GroupLevel[];
  cells: readonly TotalsCell[];
  /** The definition's bucket pairs, in definition order, each once. */
  pairs: readonly { bucket_l1: string; bucket_l2: string }[];
  range: MonthRange;
  months: readonly string[];
  currency: string;
}

type Scope = Partial<Record<GroupLevel, string>>;

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** The groups of one level inside a scope: every bucket of the definition and every month of the range, with or without data. */
function valuesOf(level: GroupLevel, scope: Scope, input: TotalsTreeInput): string[] {
  if (level === 'month') return scope.month !== undefined ? [scope.month] : [...input.months];
  const pairs = input.pairs.filter(
    (p) => (scope.bucket_l1 === undefined || p.bucket_l1 === scope.bucket_l1) && (scope.bucket_l2 === undefined || p.bucket_l2 === scope.bucket_l2),
  );
  return unique(pairs.map((p) => p[level]));
}

function inScope(cell: TotalsCell, scope: Scope): boolean {
  return (Object.keys(scope) as GroupLevel[]).every((level) => cell[level] === scope[level]);
}

function directionTotals(cells: readonly TotalsCell[], direction: Direction, months: number, link: string, currency: string): DirectionTotals {
  const mine = cells.filter((c) => c.direction === direction);
  // Sums in exact integers (pence); decimal.js only for the average's one division, half-up.
  const total = sumMinorUnits(mine.map((c) => c.total));
  return {
    total: { value: total, currency },
    monthly_average: { value: monthlyAverage(total, months), currency },
    transaction_count: mine.reduce((n, c) => n + c.transaction_count, 0),
    _links: { transactions: link },
  };
}

function group(level: GroupLevel, name: string, parent: Scope, depth: number, input: TotalsTreeInput): TotalsGroup {
  const scope: Scope = { ...parent, [level]: name };
  const cells = input.cells.filter((c) => inScope(c, scope));
  // A group inside one month covers that month only: its average equals its total.
  const range: MonthRange = scope.month !== undefined ? { from: scope.month, to: scope.month } : input.range;
  const months = monthCount(range);
  const link = (direction?: Direction) =>
    transactionsLink({ bucketId: input.bucketId, bucketL1: scope.bucket_l1, bucketL2: scope.bucket_l2, range, currency: input.currency, direction });
  const incoming = directionTotals(cells, 'credit', months, link('credit'), input.currency);
  const outgoing = directionTotals(cells, 'debit', months, link('debit'), input.currency);
  const out: TotalsGroup = {
    group_name: name,
    group_type: level,
    incoming,
    outgoing,
    transaction_count: incoming.transaction_count + outgoing.transaction_count,
    _links: { transactions: link() },
  };
  const next = input.levels[depth + 1];
  if (next !== undefined) out.subtotals = valuesOf(next, scope, input).map((v) => group(next, v, scope, depth + 1, input));
  return out;
}

/** Groups the cells by the requested levels, nesting each further level as subtotals. */
export function buildTotalsTree(input: TotalsTreeInput): TotalsGroup[] {
  const first = input.levels[0];
  if (first === undefined) return [];
  return valuesOf(first, {}, input).map((v) => group(first, v, {}, 0, input));
}
