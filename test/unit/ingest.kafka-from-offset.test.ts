import { describe, expect, it } from 'vitest';
import { fromOffset } from '../../src/ingest/kafka-offsets.js';

const at = (...offsets: number[]) => offsets.map((o) => ({ offset: String(o) }));

describe('the messages of a fetch from a stored position on', () => {
  it('keeps every message when the first is at or past the position, and drops those before it otherwise, gaps and all', () => {
    const all = at(10, 11, 15, 16);
    // The common case: the very array, unfiltered.
    expect(fromOffset(all, 10n)).toBe(all);
    expect(fromOffset(all, 3n)).toBe(all);
    // A fetch that began before the position (a rebalance, a seek back): only what DuckDB does not hold yet.
    expect(fromOffset(all, 11n)).toEqual(at(11, 15, 16));
    expect(fromOffset(all, 12n)).toEqual(at(15, 16));
    expect(fromOffset(all, 17n)).toEqual([]);
    expect(fromOffset([], 5n)).toEqual([]);
  });
});
