import { describe, expect, it } from 'vitest';
import { wholeMonthRange } from '../../src/domain/month-range.js';
import { addMonths, monthsIn } from '../../src/domain/months.js';

const NOW = new Date('2024-05-15T12:00:00Z');

describe('wholeMonthRange', () => {
  it('fills a missing end as the API and the command line both do', () => {
    expect(wholeMonthRange({}, NOW)).toEqual({ ok: true, range: { from: '2023-11', to: '2024-04' } });
    expect(wholeMonthRange({ to: '2024-02' }, NOW)).toEqual({ ok: true, range: { from: '2023-09', to: '2024-02' } });
    expect(wholeMonthRange({ from: '2024-01' }, NOW)).toEqual({ ok: true, range: { from: '2024-01', to: '2024-04' } });
    expect(wholeMonthRange({ from: '2024-06' }, NOW)).toEqual({ ok: true, range: { from: '2024-06', to: '2024-06' } });
  });

  it('refuses a range that runs backwards or spans more than 120 months', () => {
    expect(wholeMonthRange({ from: '2024-03', to: '2024-02' }, NOW)).toEqual({ ok: false, problem: 'from_after_to' });
    expect(wholeMonthRange({ from: '2014-01', to: '2023-12' }, NOW)).toMatchObject({ ok: true });
    expect(wholeMonthRange({ from: '2013-12', to: '2023-12' }, NOW)).toEqual({ ok: false, problem: 'too_long' });
  });

  it('counts months in every four-digit year, the years 0 to 99 included (not taken for 1900 to 1999)', () => {
    expect(addMonths('0001-01', 2)).toBe('0001-03');
    expect(addMonths('0099-12', 1)).toBe('0100-01');
    expect(addMonths('1000-01', -1)).toBe('0999-12');
    expect(addMonths('2024-11', 3)).toBe('2025-02');
    expect(monthsIn({ from: '0050-11', to: '0051-02' })).toEqual(['0050-11', '0050-12', '0051-01', '0051-02']);
  });
});
