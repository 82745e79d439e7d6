import { formatMoney, longMonth } from './pdf-format.js';
import { label } from './pdf-labels.js';
import type { FigureValue, TransactionRef } from './report-provenance.js';

/**
 * Figure paths of a report's provenance ('assessment.income.total.monthly_totals[month=2024-01].amount')
 * in words, and which transactions can move them: what verification prints.
 */

const FIGURES: Array<{ prefix: string; words: string; counts: string[] }> = [
  { prefix: 'assessment.income.total', words: 'Total income', counts: ['income'] },
  { prefix: 'assessment.income.net', words: 'Net income', counts: ['income', 'essential'] },
  { prefix: 'assessment.expenditure.essential', words: 'Essential expenditure', counts: ['essential'] },
  { prefix: 'assessment.expenditure.non_essential', words: 'Non-essential expenditure', counts: ['non_essential'] },
];

const PART_WORDS: Record<string, string> = {
  overall_total: 'over the period',
  monthly_average: 'monthly average',
  transaction_count: 'number of transactions',
  amount: '',
};

const selector = (path: string, key: string): string | undefined => new RegExp(`\\[${key}=([^\\]]+)\\]`).exec(path)?.[1];

/** 'assessment.income.total.monthly_totals[month=2024-01].amount' -> 'Total income, January 2024'. */
export function describeFigure(path: string): string {
  const figure = FIGURES.find((f) => path.startsWith(`${f.prefix}.`));
  if (!figure) return path.replace(/^insights\./, 'Insights: ').replace(/[._]/g, ' ').replace(/\s+/g, ' ').trim();
  const month = selector(path, 'month');
  const bucket = selector(path, 'bucket_l2');
  const last = path.split('.').at(-1) ?? '';
  const parts = [figure.words, month ? longMonth(month) : '', bucket ? label(bucket) : '', PART_WORDS[last] ?? last.replace(/_/g, ' ')];
  return parts.filter(Boolean).join(', ');
}

/**
 * Which transactions can move a figure, as keys: a transaction (as the
 * report counted it, or as the store has it now) is filed under refKeys, and
 * moves the figure at a path when the two share a key. A figure of a month
 * is moved only by that month's transactions; one of income or expenditure
 * by the transactions counted there (of its bucket, when it names one); an
 * insight or coverage figure by every transaction of its month, or of the
 * period.
 */
const ANY = '*';
const NONE = '-';
const key = (month: string, group: string, bucket: string): string => `${month}\u0000${group}\u0000${bucket}`;

export function figureKeys(path: string): string[] {
  const month = selector(path, 'month') ?? ANY;
  const figure = FIGURES.find((f) => path.startsWith(`${f.prefix}.`));
  if (!figure) return [key(month, ANY, ANY)];
  const bucket = selector(path, 'bucket_l2') ?? ANY;
  return figure.counts.map((group) => key(month, group, bucket));
}

export function refKeys(ref: TransactionRef): string[] {
  const keys: string[] = [];
  for (const month of [ref[5], ANY]) {
    keys.push(key(month, ANY, ANY));
    // A transaction counted in no figure moves only the insights and coverage.
    if (!ref[3]) continue;
    keys.push(key(month, ref[3], ANY), key(month, ref[3], ref[4] ?? NONE));
  }
  return keys;
}

/** A value as verification prints it: amounts of money formatted, the rest as is. */
export function describeValue(path: string, value: FigureValue, currency: string): string {
  if (value === null) return 'none';
  if (typeof value === 'string' && /^-?\d+\.\d{2}$/.test(value) && !/percent|spread/.test(path)) return formatMoney(value, currency);
  return String(value);
}
