import { systemClock, type Clock } from '../../domain/clock.js';
import { addMonths, firstInstant, lastInstant, monthCount, monthOf, monthsIn, type MonthRange } from '../../domain/months.js';
import { money, monthlyAverage, populationVariance, sumAmounts } from '../../domain/money.js';
import { UK_V2, type CategoryLabel } from '../../domain/taxonomy.js';
import type { CustomerRef } from '../../domain/customer-ref.js';
import { validationError } from '../errors.js';
import type { CategoryMonthRow, MonthlyTotalsRepository } from '../repositories/monthly-totals.repository.js';
import type { CategoryTotalsEntryOut, CategoryTotalsQuery, CurrencyTotalOut } from '../schemas/category-totals.schemas.js';
import { MAX_RANGE_MONTHS } from '../../domain/month-range.js';
import { monthOfDateParam } from './month-range.js';

export interface CategoryTotalsResult {
  entries: CategoryTotalsEntryOut[];
  metadata: { from: string; to: string; credit_total: CurrencyTotalOut[]; debit_total: CurrencyTotalOut[] };
}

const monthOfParam = (v: string): string => (/^\d{4}-\d{2}$/.test(v) ? v : monthOfDateParam(v));

/** from (default 6 months ago) to (default today), widened to the whole months that contain them. */
export function categoryRange(q: Pick<CategoryTotalsQuery, 'from' | 'to'>, now: Date): MonthRange {
  const to = q.to !== undefined ? monthOfParam(q.to) : monthOf(now);
  const from = q.from !== undefined ? monthOfParam(q.from) : addMonths(monthOf(now), -6);
  if (from > to) throw validationError({ from: 'must not be after to' });
  if (monthCount({ from, to }) > MAX_RANGE_MONTHS) throw validationError({ to: `the range must span at most ${MAX_RANGE_MONTHS} months` });
  return { from, to };
}

/** 'l1' or 'l1.l2' -> a test on a category pair; unknown slugs are a validation error of `field`. */
function categoryMatchers(values: string[] | undefined, field: string): Array<(l1: string, l2: string) => boolean> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  return values.map((v) => {
    const [l1, l2, extra] = v.split('.');
    const cat = UK_V2.categories.find((c) => c.name === l1);
    if (extra !== undefined || !cat || (l2 !== undefined && !cat.subcategories.some((s) => s.name === l2))) {
      throw validationError({ [field]: `unknown category '${v}': use l1 or l1.l2 slugs of uk-v2` });
    }
    return (a: string, b: string) => a === l1 && (l2 === undefined || b === l2);
  });
}

function labelsOf(l1: string, l2: string): readonly CategoryLabel[] {
  return UK_V2.categories.find((c) => c.name === l1)?.subcategories.find((s) => s.name === l2)?.labels ?? [];
}

/** One entry per currency present: the total, the monthly figures (zero for empty months), their average and population variance. */
function currencyTotals(rows: readonly CategoryMonthRow[], months: readonly string[]): CurrencyTotalOut[] {
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  return currencies.map((currency) => {
    const mine = rows.filter((r) => r.currency === currency);
    const monthly = months.map((month) => {
      const inMonth = mine.filter((r) => r.month === month);
      return {
        month,
        amount: money(sumAmounts(inMonth.map((r) => r.total)), currency),
        transaction_count: inMonth.reduce((n, r) => n + r.transaction_count, 0),
      };
    });
    const total = sumAmounts(mine.map((r) => r.total));
    return {
      amount: money(total, currency),
      transaction_count: mine.reduce((n, r) => n + r.transaction_count, 0),
      monthly_average: money(monthlyAverage(total, months.length), currency),
      variance: populationVariance(monthly.map((m) => m.amount.value)),
      monthly,
    };
  });
}

function directions(rows: readonly CategoryMonthRow[], months: readonly string[]) {
  return {
    credit_total: currencyTotals(rows.filter((r) => r.direction === 'credit'), months),
    debit_total: currencyTotals(rows.filter((r) => r.direction === 'debit'), months),
  };
}

export class CategoryTotalsService {
  constructor(
    private readonly monthlyTotals: MonthlyTotalsRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  async totals(customer: CustomerRef, q: CategoryTotalsQuery, now: Date = this.clock()): Promise<CategoryTotalsResult> {
    const range = categoryRange(q, now);
    const include = categoryMatchers(q.category, 'category');
    const exclude = categoryMatchers(q.exclude_category, 'exclude_category');
    const label = q.category_label;
    const months = monthsIn(range);
    const rows = (await this.monthlyTotals.categoryMonths(customer, range, q.currency, q.account_id)).filter(
      (r) =>
        (!include || include.some((m) => m(r.category_l1, r.category_l2))) &&
        !(exclude ?? []).some((m) => m(r.category_l1, r.category_l2)) &&
        (label === undefined || labelsOf(r.category_l1, r.category_l2).includes(label)),
    );
    const entries: CategoryTotalsEntryOut[] = [];
    for (const category of UK_V2.categories) {
      const mine = rows.filter((r) => r.category_l1 === category.name);
      if (mine.length === 0) continue;
      const l2Totals = q.include_l2
        ? category.subcategories
            .map((s) => ({ name: s.name, rows: mine.filter((r) => r.category_l2 === s.name) }))
            .filter((s) => s.rows.length > 0)
            .map((s) => ({ name: s.name, ...directions(s.rows, months) }))
        : [];
      entries.push({ name: category.name, ...directions(mine, months), l2_totals: l2Totals });
    }
    return { entries, metadata: { from: firstInstant(range.from), to: lastInstant(range.to), ...directions(rows, months) } };
  }
}
