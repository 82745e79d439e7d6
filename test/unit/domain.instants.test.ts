import { describe, expect, it } from 'vitest';
import { instantProblem, utcInstant } from '../../src/domain/instants.js';
import { microsOf } from '../../src/domain/timestamps.js';
import { isoInstant, occurredAt } from '../../src/domain/instant-schemas.js';

describe('instants', () => {
  it.each([
    ['2024-02-29T00:00:00Z', null],
    ['2000-02-29T12:00:00.123456789+01:00', null],
    ['2100-12-31T23:59:59Z', null],
    ['1970-01-01T00:00Z', null],
    ['2100-02-29T00:00:00Z', 'must be a real calendar date'],
    ['2024-04-31T00:00:00Z', 'must be a real calendar date'],
    ['2024-13-01T00:00:00Z', 'must be a real calendar date'],
    ['2024-00-10T00:00:00Z', 'must be a real calendar date'],
    ['2024-01-01T23:60:00Z', 'must be a real time of day'],
    ['2024-01-01T23:59:60Z', 'must be a real time of day'],
    ['2024-01-01T00:00:00+14:60', 'must have a real zone offset'],
    ['1969-12-31T23:59:59Z', 'must be in the years 1970 to 2100'],
    ['2101-01-01T00:00:00Z', 'must be in the years 1970 to 2100'],
    // The years of the instant in UTC, as it is stored: within them only where the offset keeps it so.
    ['1970-01-01T00:30:00+01:00', 'must be in the years 1970 to 2100, in UTC'],
    ['1970-01-01T01:00:00+01:00', null],
    ['1970-01-01T00:30:00-01:00', null],
    ['2100-12-31T23:30:00-01:00', 'must be in the years 1970 to 2100, in UTC'],
    ['2100-12-31T22:59:59-01:00', null],
    ['2100-12-31T23:30:00+01:00', null],
    ['2100-12-31T23:59:59.999-00:01', 'must be in the years 1970 to 2100, in UTC'],
    ['1969-12-31T23:30:00-01:00', null],
    ['2101-01-01T00:30:00+01:00', null],
    ['1969-12-31T22:30:00-01:00', 'must be in the years 1970 to 2100, in UTC'],
    ['1969-12-31T23:30:00Z', 'must be in the years 1970 to 2100'],
    ['1968-12-31T23:30:00-01:00', 'must be in the years 1970 to 2100'],
    ['2024-01-01 00:00:00Z', 'must be an ISO 8601 timestamp with a time zone'],
  ])('%s: %s', (input, problem) => {
    expect(instantProblem(input)).toBe(problem);
  });

  it('normalises to UTC without rolling the date', () => {
    expect(isoInstant.parse('2024-03-01T00:30:00+01:00')).toBe('2024-02-29T23:30:00.000Z');
  });

  it('keeps an instant to the microsecond, as the store holds it, and orders versions so', () => {
    expect(utcInstant('2026-10-16T12:00:00.1239Z')).toBe('2026-10-16T12:00:00.123900Z');
    expect(utcInstant('2026-10-16T17:45:00.123456789+05:45')).toBe('2026-10-16T12:00:00.123456Z');
    expect(isoInstant.parse('2026-10-16T17:45:00.000001+05:45')).toBe('2026-10-16T12:00:00.000001Z');
    // No digit below the millisecond: written as before, to the millisecond.
    expect(utcInstant('2026-10-16T12:00:00.5Z')).toBe('2026-10-16T12:00:00.500Z');
    expect(utcInstant('2026-10-16T12:00Z')).toBe('2026-10-16T12:00:00.000Z');
    // The same instant as the schema writes it and as the store gives it back; a later one in the same millisecond is larger.
    expect(microsOf('2026-10-16T12:00:00.123900Z')).toBe(microsOf('2026-10-16 12:00:00.1239'));
    expect(microsOf('2026-10-16T12:00:00.123900Z') - microsOf('2026-10-16T12:00:00.123100Z')).toBe(800);
    expect(microsOf('2026-10-16 12:00:00')).toBe(Date.parse('2026-10-16T12:00:00Z') * 1000);
  });

  it('takes an occurred_at up to 30 days ahead of now, not more', () => {
    const day = 86_400_000;
    expect(occurredAt.safeParse(new Date(Date.now() + 29 * day).toISOString()).success).toBe(true);
    expect(occurredAt.safeParse(new Date(Date.now() + 31 * day).toISOString()).success).toBe(false);
  });
});
