import { describe, expect, it } from 'vitest';
import { fromMinorUnits, sumMinorUnits, toMinorUnits } from '../../src/domain/minor-units.js';
import { sumAmounts } from '../../src/domain/money.js';

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
});
