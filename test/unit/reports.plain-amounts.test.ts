import { describe, expect, it } from 'vitest';
import { subtract, sumAmounts, toFixed2 } from '../../src/domain/money.js';
import { monthsIn } from '../../src/domain/months.js';
import { difference, fixed2, moneyOf, monthsOf, sumFixed2 } from '../../src/reports/plain-amounts.js';

/**
 * The report builders format amounts without decimal.js where the text is
 * already in the API's form, and sum such text in whole pennies: the result
 * must be decimal.js's string in every case, or a report would change.
 */

// SQL's DECIMAL text, and the forms that are not it (which must go through decimal.js).
const EDGES = ['0.00', '-0.00', '0.01', '-0.01', '12.30', '-12.30', '999999999.99', '-999999999.99', '123456789012345678.99',
  '100', '-100', '1.5', '0.005', '-0.005', '2.345', '-2.345', '007.10', '-0', '1e3', '0.10', '.50'];

function randomAmount(seed: number): string {
  const pennies = BigInt(Math.floor(Math.sin(seed) * 1e11));
  const abs = (pennies < 0n ? -pennies : pennies).toString().padStart(3, '0');
  return `${pennies < 0n ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}
const RANDOM = Array.from({ length: 400 }, (_, i) => randomAmount(i + 1));

describe('amounts in the API\'s form, without decimal.js', () => {
  it('formats every amount as toFixed2 does, keeping the currency', () => {
    for (const v of [...EDGES, ...RANDOM]) {
      expect(fixed2(v), v).toBe(toFixed2(v));
      expect(moneyOf(v, 'GBP')).toEqual({ value: toFixed2(v), currency: 'GBP' });
    }
  });

  it('sums and subtracts as sumAmounts and subtract do, negative zero and all', () => {
    const lists = [[], ['-0.00'], ['-0.00', '-0.00'], ['5.00', '-5.00'], ['0.01', '0.02'], ['1.5', '2.25'], ['1e3', '0.01'], EDGES, RANDOM,
      RANDOM.slice(0, 7), RANDOM.filter((v) => v.startsWith('-'))];
    for (const list of lists) expect(sumFixed2(list), list.join(',')).toBe(sumAmounts(list));
    for (let i = 0; i + 1 < RANDOM.length; i++) {
      const [a, b] = [RANDOM[i] ?? '0.00', RANDOM[i + 1] ?? '0.00'];
      expect(difference(a, b)).toBe(subtract(a, b));
      expect(difference(a, a)).toBe(subtract(a, a));
    }
    for (const a of EDGES) for (const b of EDGES) expect(difference(a, b), `${a} - ${b}`).toBe(subtract(a, b));
  });

  it('lists a range\'s months as monthsIn does', () => {
    for (const range of [{ from: '2023-11', to: '2024-02' }, { from: '2024-01', to: '2024-01' }, { from: '2024-03', to: '2024-01' }]) {
      expect(monthsOf(range)).toEqual(monthsIn(range));
      expect(monthsOf(range)).toBe(monthsOf({ ...range }));
    }
  });
});
