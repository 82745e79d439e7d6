import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { compareDecimals, isBelowZero } from '../../src/domain/decimal-order.js';
import { divideHalfUp, fractionOf, fromMinorUnits, roundToMinorUnits, sumMinorUnits, toMinorUnits } from '../../src/domain/minor-units.js';
import { sumAmounts } from '../../src/domain/money.js';

/** Enough digits that decimal.js's quotient is exact before it is rounded to a whole number. */
const D = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_UP });

/** Seeded integers of up to `digits` digits, either sign (a failure names a case that comes back). */
function integers(seed: number, count: number, digits: number): bigint[] {
  let s = seed;
  const next = (n: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  return Array.from({ length: count }, () => {
    const text = Array.from({ length: 1 + next(digits) }, () => String(next(10))).join('');
    return (next(2) === 0 ? -1n : 1n) * BigInt(text);
  });
}

describe('minor units', () => {
  it('reads and writes 2-place decimals exactly', () => {
    expect([toMinorUnits('12.3'), toMinorUnits('0.05'), toMinorUnits('7'), toMinorUnits('-1.99')]).toEqual([1230n, 5n, 700n, -199n]);
    expect([fromMinorUnits(0n), fromMinorUnits(5n), fromMinorUnits(-199n), fromMinorUnits(99999999999999999999n)]).toEqual([
      '0.00', '0.05', '-1.99', '999999999999999999.99',
    ]);
    expect(() => toMinorUnits('1.234')).toThrow();
  });

  it('sums as decimal.js does, beyond what a float holds', () => {
    const values = ['0.10', '0.20', '999999999.99', '999999999.99', '0.01', '12', '-3.5'];
    expect(sumMinorUnits(values)).toBe(sumAmounts(values));
    const big = Array.from({ length: 10_000 }, (_, i) => `${999_999_000 + i}.${String(i % 100).padStart(2, '0')}`);
    expect(sumMinorUnits(big)).toBe(sumAmounts(big));
    expect(sumMinorUnits([])).toBe('0.00');
  });

  it('divides half-up to a whole number as decimal.js does, ties away from zero, at any size', () => {
    expect([divideHalfUp(5n, 2n), divideHalfUp(-5n, 2n), divideHalfUp(5n, -2n), divideHalfUp(-5n, -2n)]).toEqual([3n, -3n, -3n, 3n]);
    expect([divideHalfUp(7n, 3n), divideHalfUp(8n, 3n), divideHalfUp(-7n, 3n), divideHalfUp(0n, -3n)]).toEqual([2n, 3n, -2n, 0n]);
    expect(() => divideHalfUp(1n, 0n)).toThrow();
    const nums = integers(7, 3000, 40);
    const dens = integers(11, 3000, 20).map((d) => (d === 0n ? 1n : d));
    nums.forEach((n, i) => {
      const d = dens[i] ?? 1n;
      const expected = new D(n.toString()).dividedBy(d.toString()).toDecimalPlaces(0, D.ROUND_HALF_UP).toFixed(0);
      expect(divideHalfUp(n, d).toString(), `${n} / ${d}`).toBe(expected);
      // A tie: an odd multiple of half the denominator.
      const tie = (2n * n + 1n) * d;
      expect(divideHalfUp(tie, 2n * d).toString(), `${tie} / ${2n * d}`).toBe(new D(tie.toString()).dividedBy((2n * d).toString()).toDecimalPlaces(0, D.ROUND_HALF_UP).toFixed(0));
    });
  });

  it('reads decimal text of any places as an exact fraction, and rounds it to the penny as toFixed2 does', () => {
    expect(fractionOf('-12.345')).toEqual({ num: -12345n, den: 1000n });
    expect(fractionOf('7')).toEqual({ num: 7n, den: 1n });
    expect(fractionOf('12.30')).toEqual({ num: 1230n, den: 100n });
    expect(() => fractionOf('1e3')).toThrow();
    expect(() => fractionOf('.5')).toThrow();
    for (const v of ['0.005', '-0.005', '0.0049999', '-0.0049999', '2.675', '1.015', '-0.00', '999999999999999999999999999999999999.995']) {
      expect(fromMinorUnits(roundToMinorUnits(fractionOf(v))), v).toBe(new D(v).toDecimalPlaces(2, D.ROUND_HALF_UP).toFixed(2));
    }
  });

  it('orders decimal text as decimal.js does, at any size and in any form', () => {
    const values = [...integers(3, 400, 38).map((n, i) => {
      const places = i % 5;
      const text = fromMinorUnits(n).replace(/\.\d+$/, '');
      return places === 0 ? text : `${text}.${String(i * 7919).slice(-places).padStart(places, '0')}`;
    }), '0', '-0', '0.000', '-0.00', '00012.50', '12.5', '-12.5000', '-12.49'];
    for (let i = 0; i < values.length; i++) {
      for (const j of [i, (i + 1) % values.length, (i * 31) % values.length, values.length - 1 - i]) {
        const [a, b] = [values[i] ?? '0', values[j] ?? '0'];
        expect(compareDecimals(a, b), `${a} ? ${b}`).toBe(new D(a).comparedTo(b));
      }
      const v = values[i] ?? '0';
      expect(isBelowZero(v), v).toBe(new D(v).isNegative() && !new D(v).isZero());
    }
    expect(() => compareDecimals('1', 'NaN')).toThrow();
  });
});
