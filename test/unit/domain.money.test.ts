import { describe, expect, it } from 'vitest';
import { monthlyAverage, populationVariance, subtract, sumAmounts, toFixed2 } from '../../src/domain/money.js';
import { addMonths, firstInstant, lastCompleteMonths, lastInstant, monthCount, monthsIn } from '../../src/domain/months.js';

describe('money', () => {
  it('rounds half-up at the 0.005 boundary, both signs', () => {
    expect(toFixed2('0.005')).toBe('0.01');
    expect(toFixed2('0.004999')).toBe('0.00');
    expect(toFixed2('1.015')).toBe('1.02'); // a float would give 1.01
    expect(toFixed2('2.675')).toBe('2.68'); // a float would give 2.67
    expect(toFixed2('-0.005')).toBe('-0.01');
  });

  it('sums many small amounts exactly', () => {
    expect(sumAmounts(new Array<string>(10_000).fill('0.01'))).toBe('100.00');
    expect(sumAmounts(['0.10', '0.20'])).toBe('0.30'); // 0.1 + 0.2 is 0.30000000000000004 in floats
    expect(sumAmounts(new Array<string>(3).fill('33.33'))).toBe('99.99');
  });

  it('averages over months, half-up to 2 places', () => {
    expect(monthlyAverage('100.00', 3)).toBe('33.33');
    expect(monthlyAverage('200.00', 3)).toBe('66.67');
    expect(monthlyAverage('0.05', 2)).toBe('0.03'); // 0.025 rounds up
    expect(monthlyAverage('1234.56', 1)).toBe('1234.56');
    expect(monthlyAverage('0.00', 6)).toBe('0.00');
    expect(() => monthlyAverage('1.00', 0)).toThrow();
  });

  it('subtracts and computes a population variance', () => {
    expect(subtract('2500.00', '2600.10')).toBe('-100.10');
    expect(populationVariance(['10.00', '20.00', '30.00'])).toBe('66.67');
    expect(populationVariance(['5.00'])).toBe('0.00');
  });
});

describe('months', () => {
  it('counts and lists whole months across a year end', () => {
    expect(monthCount({ from: '2023-11', to: '2024-02' })).toBe(4);
    expect(monthsIn({ from: '2023-11', to: '2024-02' })).toEqual(['2023-11', '2023-12', '2024-01', '2024-02']);
    expect(addMonths('2024-01', -1)).toBe('2023-12');
  });

  it('gives the first and last instants of a month, leap years included', () => {
    expect(firstInstant('2024-02')).toBe('2024-02-01T00:00:00Z');
    expect(lastInstant('2024-02')).toBe('2024-02-29T23:59:59Z');
    expect(lastInstant('2023-02')).toBe('2023-02-28T23:59:59Z');
    expect(lastInstant('2024-12')).toBe('2024-12-31T23:59:59Z');
  });

  it('takes the last complete months before today', () => {
    expect(lastCompleteMonths(6, new Date('2024-03-15T10:00:00Z'))).toEqual({ from: '2023-09', to: '2024-02' });
    expect(lastCompleteMonths(1, new Date('2024-01-01T00:00:00Z'))).toEqual({ from: '2023-12', to: '2023-12' });
  });
});
