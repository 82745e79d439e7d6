import { describe, expect, it } from 'vitest';
import { wholeMonthRange } from '../../src/domain/month-range.js';

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
});
