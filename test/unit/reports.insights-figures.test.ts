import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { monthlyAverage } from '../../src/domain/money.js';
import { atLeast, compareAmounts, consistency, isNegative, median, predictedMonthly, sharePercent } from '../../src/reports/insights-figures.js';

/**
 * The insights' arithmetic is exact, in BigInt fractions rounded once,
 * half-up. Each function is compared here with the decimal.js computation
 * it replaced, over generated amounts: both signs, zero, ties at half a
 * penny, and totals of DECIMAL(38,2) size.
 *
 * decimal.js as configured (40 significant digits) rounds a quotient of
 * more than 40 digits before rounding it to the penny. For amounts of at
 * most 16 integer digits (a month of ten million payments of the largest
 * amount an event may carry) no result comes near that, and the two agree
 * as they are. Beyond that, for shares and spreads of huge amounts, the
 * reference is decimal.js with 200 digits: the exact quotient, rounded half-up.
 */

const D40 = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
const D200 = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_UP });
type DecimalClass = typeof D40;

const fixed2 = (D: DecimalClass, v: Decimal.Value): string => new D(v).toDecimalPlaces(2, D.ROUND_HALF_UP).toFixed(2);

/** The code before: the same expressions, with a chosen precision. */
function reference(D: DecimalClass) {
  const median = (sorted: readonly string[]): string => {
    if (sorted.length === 0) return '0.00';
    const mid = Math.floor(sorted.length / 2);
    if (sorted.length % 2 === 1) return fixed2(D, sorted[mid] ?? '0');
    return fixed2(D, new D(sorted[mid - 1] ?? '0').plus(sorted[mid] ?? '0').dividedBy(2));
  };
  return {
    median,
    spread: (sorted: readonly string[]): string => {
      const mid = median(sorted);
      return new D(mid).isZero() ? '0.00' : fixed2(D, new D(sorted.at(-1) ?? '0').minus(sorted[0] ?? '0').dividedBy(mid).times(100));
    },
    predicted: (medianAmount: string, perYear: number | null, total: string, months: number): string =>
      perYear === null ? fixed2(D, new D(total).dividedBy(months)) : fixed2(D, new D(medianAmount).times(perYear).dividedBy(12)),
    // Rounded toward zero (a share shown is never at a threshold it has not reached).
    share: (part: string, whole: string): string => {
      if (new D(whole).isZero()) return new D(part).isZero() ? '0.00' : '100.00';
      const shown = new D(part).dividedBy(whole).times(100).toFixed(2, D.ROUND_DOWN);
      return shown === '-0.00' ? '0.00' : shown;
    },
    compare: (a: string, b: string): number => new D(a).comparedTo(b),
    negative: (v: string): boolean => new D(v).isNegative() && !new D(v).isZero(),
  };
}
const exact40 = reference(D40);
const exact200 = reference(D200);

/** A small seeded generator (mulberry32), so that a failure names a case that comes back. */
function generator(seed: number) {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const digits = (n: number): string => Array.from({ length: n }, (_, i) => String(i === 0 && n > 1 ? 1 + int(9) : int(10))).join('');
  /** An amount of 0 to maxDigits integer digits and `places` decimals (0 to 2 unless told), either sign, often zero or small. */
  const amount = (maxDigits: number, places = int(3)): string => {
    const kind = int(10);
    const whole = kind === 0 ? '0' : kind === 1 ? String(int(3)) : digits(1 + int(maxDigits));
    const fraction = places === 0 ? '' : `.${digits(places).padStart(places, '0').replace(/^./, () => String(int(10)))}`;
    const sign = int(3) === 0 ? '-' : '';
    return `${sign}${whole}${fraction}`;
  };
  return { int, amount, next };
}

const CASES = 4000;
const REALISTIC_DIGITS = 16;
const HUGE_DIGITS = 36;

/** 2-place text, as SQL gives it, of a number of pence. */
const pence = (n: bigint): string => {
  const abs = (n < 0n ? -n : n).toString().padStart(3, '0');
  return `${n < 0n ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
};

const byValue = (a: string, b: string): number => new D200(a).comparedTo(b);

describe('the insights\' figures, in exact integers', () => {
  it('takes medians as decimal.js did, ties at half a penny rounding away from zero', () => {
    expect(median([])).toBe('0.00');
    expect(median(['0.01', '0.02'])).toBe('0.02');
    expect(median(['-0.02', '-0.01'])).toBe('-0.02');
    expect(median(['-0.01', '0.00'])).toBe('-0.01');
    expect(median(['-0.01', '0.01'])).toBe('0.00');
    const g = generator(1);
    for (let i = 0; i < CASES; i++) {
      const digits = i % 4 === 0 ? HUGE_DIGITS : REALISTIC_DIGITS;
      const sorted = Array.from({ length: 1 + g.int(6) }, () => g.amount(digits)).sort(byValue);
      expect(median(sorted), sorted.join(' ')).toBe(exact40.median(sorted));
    }
  });

  it('gives the spread of a group\'s amounts as decimal.js did, and the exact spread for huge amounts', () => {
    const g = generator(2);
    expect(consistency(['-5.00', '5.00'], 'GBP', '20').spread_percent).toBe('0.00'); // a median of zero
    for (let i = 0; i < CASES; i++) {
      const huge = i % 4 === 0;
      const sorted = Array.from({ length: 1 + g.int(6) }, () => g.amount(huge ? HUGE_DIGITS : REALISTIC_DIGITS)).sort(byValue);
      const limit = g.amount(3).replace('-', '');
      const result = consistency(sorted, 'GBP', limit);
      const expected = (huge ? exact200 : exact40).spread(sorted);
      expect(result.spread_percent, sorted.join(' ')).toBe(expected);
      if (!huge) expect(expected).toBe(exact200.spread(sorted));
      expect(result.consistent, `${expected} <= ${limit}`).toBe(new D200(expected).lte(limit));
      expect(result.median.value).toBe(exact40.median(sorted));
    }
  });

  it('scales a median to a month, and a total over the months, as decimal.js did', () => {
    expect(predictedMonthly('0.06', 52, '0', 1, 'GBP').value).toBe('0.26'); // 0.26
    expect(predictedMonthly('0.03', 26, '0', 1, 'GBP').value).toBe('0.07'); // 0.065
    expect(predictedMonthly('-0.03', 26, '0', 1, 'GBP').value).toBe('-0.07');
    const g = generator(3);
    for (let i = 0; i < CASES; i++) {
      const digits = i % 3 === 0 ? HUGE_DIGITS : REALISTIC_DIGITS;
      const [med, total] = [g.amount(digits), g.amount(digits)];
      const perYear = [null, 52, 26, 13, 12, 1, 365][g.int(7)] ?? null;
      const months = 1 + g.int(24);
      expect(predictedMonthly(med, perYear, total, months, 'GBP').value, `${med} ${perYear} ${total} ${months}`).toBe(exact40.predicted(med, perYear, total, months));
    }
  });

  it('averages a total over its months as decimal.js did, ties and huge totals included', () => {
    expect(monthlyAverage('0.05', 2)).toBe('0.03');
    expect(monthlyAverage('-0.05', 2)).toBe('-0.03');
    expect(monthlyAverage('-0.01', 3)).toBe('0.00');
    expect(monthlyAverage('0.005', 1)).toBe('0.01');
    expect(monthlyAverage('-0.00', 12)).toBe('0.00');
    expect(() => monthlyAverage('1.00', 0)).toThrow();
    expect(() => monthlyAverage('1.00', -1)).toThrow();
    const g = generator(4);
    for (let i = 0; i < CASES; i++) {
      const months = 1 + g.int(36);
      // Every third total is a tie: an odd number of half-months in pence.
      const total = i % 3 === 0 ? pence(BigInt(months) * BigInt(g.int(1e9) - 5e8) + (months % 2 === 0 ? BigInt(months / 2) : 0n))
        : g.amount(i % 2 === 0 ? HUGE_DIGITS : REALISTIC_DIGITS, g.int(5));
      expect(monthlyAverage(total, months), `${total} / ${months}`).toBe(fixed2(D40, new D40(total).dividedBy(months)));
    }
  });

  it('takes shares exactly, rounded toward zero, zero wholes included, and exact shares of huge amounts', () => {
    expect(sharePercent('0.00', '0.00')).toBe('0.00');
    expect(sharePercent('0.00', '-0.00')).toBe('0.00');
    expect(sharePercent('5.00', '0.00')).toBe('100.00');
    expect(sharePercent('-5.00', '0')).toBe('100.00');
    expect(sharePercent('1.00', '3.00')).toBe('33.33');
    expect(sharePercent('2.00', '3.00')).toBe('66.66');
    // Just under a threshold stays under it: 9.995% and 19.995%.
    expect(sharePercent('999.50', '10000.00')).toBe('9.99');
    expect(sharePercent('1999.50', '10000.00')).toBe('19.99');
    expect(sharePercent('1000.00', '10000.00')).toBe('10.00');
    expect(sharePercent('1.00', '-8.00')).toBe('-12.50');
    expect(sharePercent('0.01', '160000.00')).toBe('0.00'); // 0.00000625%
    expect(sharePercent('1.00', '16000.00')).toBe('0.00'); // 0.00625%
    expect(sharePercent('3.00', '16000.00')).toBe('0.01'); // 0.01875%
    expect(sharePercent('0.01', '200.00')).toBe('0.00'); // 0.005%
    expect(sharePercent('-0.01', '200.00')).toBe('0.00');
    expect(sharePercent('-0.03', '200.00')).toBe('-0.01'); // -0.015%
    const g = generator(5);
    for (let i = 0; i < CASES; i++) {
      const huge = i % 4 === 0;
      const digits = huge ? HUGE_DIGITS : REALISTIC_DIGITS;
      const part = g.amount(digits);
      const whole = i % 10 === 1 ? ['0', '0.00', '-0.00'][g.int(3)] ?? '0' : g.amount(digits);
      const expected = (huge ? exact200 : exact40).share(part, whole);
      expect(sharePercent(part, whole), `${part} / ${whole}`).toBe(expected);
      if (!huge) expect(expected).toBe(exact200.share(part, whole));
    }
  });

  it('orders, compares with thresholds and finds deficits as decimal.js did, whatever the form', () => {
    const forms = ['0', '0.00', '-0', '-0.00', '00.0', '1.5', '1.50', '01.500', '-1.5', '-1.49', '10', '9.99', '-10', '0.005', '-0.005', '12345678901234567890123456789012345678.99'];
    for (const a of forms) {
      for (const b of forms) expect(compareAmounts(a, b), `${a} ? ${b}`).toBe(exact40.compare(a, b));
      expect(isNegative(a), a).toBe(exact40.negative(a));
    }
    const g = generator(6);
    for (let i = 0; i < CASES; i++) {
      const digits = i % 2 === 0 ? 3 : HUGE_DIGITS;
      const [a, b] = [g.amount(digits, g.int(5)), g.amount(digits, g.int(5))];
      expect(compareAmounts(a, b), `${a} ? ${b}`).toBe(exact40.compare(a, b));
      expect(compareAmounts(a, a)).toBe(0);
      expect(atLeast(a, b.replace('-', '')), `${a} >= ${b}`).toBe(new D40(a).gte(b.replace('-', '')));
      expect(isNegative(a), a).toBe(exact40.negative(a));
    }
    const sorted = Array.from({ length: 500 }, () => g.amount(12)).sort(compareAmounts);
    expect(sorted).toEqual([...sorted].sort(byValue));
  });

  it('refuses text that is not a decimal number', () => {
    expect(() => compareAmounts('1e3', '1')).toThrow();
    expect(() => sharePercent('abc', '1')).toThrow();
    expect(() => median(['1', 'x'])).toThrow();
  });
});
