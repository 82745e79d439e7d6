import { describe, expect, it } from 'vitest';
import { isolateRejected, type TrialWrite } from '../../src/ingest/isolate.js';
import type { PreparedItem } from '../../src/ingest/types.js';

/** Items that only need to be told apart: the trial below looks at how many it is given. */
const items = (n: number): PreparedItem[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'dead', raw: `line ${i}`, reason: 'none', ref: { source: 'file', sourceRef: 'f', lineNumber: i + 1 } }));

/** A store that rejects every prefix holding the item at `badAt`, and, while `down` says so, every write at all. */
function store(badAt: number | undefined, down: () => boolean): { trial: TrialWrite; sizes: number[] } {
  const sizes: number[] = [];
  const trial: TrialWrite = async (prefix) => {
    sizes.push(prefix.length);
    if (down()) return new Error('the store is down');
    return badAt !== undefined && prefix.length > badAt ? new Error(`rejects item ${badAt}`) : undefined;
  };
  return { trial, sizes };
}

describe('finding the event the store rejects', () => {
  it('finds the first rejected event by prefixes, and returns the store\'s error for it', async () => {
    for (const badAt of [0, 1, 7, 31]) {
      const { trial } = store(badAt, () => false);
      const found = await isolateRejected(items(32), 0, trial);
      expect(found?.index).toBe(badAt);
      expect((found?.error as Error).message).toBe(`rejects item ${badAt}`);
    }
  });

  it('blames no event when the store takes the whole batch, or rejects even the prefix known to be good', async () => {
    expect(await isolateRejected(items(8), 0, store(undefined, () => false).trial)).toBeUndefined();
    expect(await isolateRejected(items(8), 3, store(undefined, () => true).trial)).toBeUndefined();
  });

  it('blames no event when the store comes back during the search: the prefix it rejected at the start is tried again', async () => {
    // Down for the first trial only (the whole batch), as DuckDB's database is until it is attached again.
    let calls = 0;
    const { trial, sizes } = store(undefined, () => calls++ === 0);
    expect(await isolateRejected(items(16), 0, trial)).toBeUndefined();
    // The whole batch was tried again at the end, and taken.
    expect(sizes.at(-1)).toBe(16);
  });

  it('blames no event when one trial in the middle of the search fails for a reason of the store\'s own', async () => {
    // Only the third trial fails: the whole batch (rejected for the store's own reason), then the known good prefix, then this.
    let calls = 0;
    const { trial } = store(undefined, () => ++calls === 1 || calls === 3);
    expect(await isolateRejected(items(16), 0, trial)).toBeUndefined();
  });

  it('still blames the last event when the store rejects it both before and after taking the prefixes before it', async () => {
    const { trial } = store(15, () => false);
    const found = await isolateRejected(items(16), 0, trial);
    expect(found?.index).toBe(15);
  });
});
