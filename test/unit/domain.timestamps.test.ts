import { describe, expect, it } from 'vitest';
import { dayOrInstant, dbFromIso, dbTime, isoFromDb, msFromDb } from '../../src/domain/timestamps.js';

describe('timestamp text of the store', () => {
  it('turns ISO instants into the store text and back', () => {
    expect(dbFromIso('2024-01-02T03:04:05.678Z')).toBe('2024-01-02 03:04:05.678');
    expect(dbTime(Date.UTC(2024, 0, 2, 3, 4, 5))).toBe('2024-01-02 03:04:05.000');
    expect(isoFromDb('2024-01-02 03:04:05.678901')).toBe('2024-01-02T03:04:05.678Z');
    expect(isoFromDb('2024-01-02 03:04:05')).toBe('2024-01-02T03:04:05Z');
    expect(isoFromDb(null)).toBeNull();
  });

  it('reads the store text as the same instant the ISO text names, to the millisecond', () => {
    expect(msFromDb('2024-02-29 23:59:59.5')).toBe(Date.parse('2024-02-29T23:59:59.500Z'));
    expect(msFromDb(dbTime(1_700_000_000_123))).toBe(1_700_000_000_123);
  });

  it('takes a bare day as 00:00 UTC and leaves an instant as written', () => {
    expect(dayOrInstant('2024-03-01')).toBe('2024-03-01T00:00:00Z');
    expect(dayOrInstant('2024-03-01T10:00:00+01:00')).toBe('2024-03-01T10:00:00+01:00');
  });
});
