import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/heap.js';

describe('collectGarbage', () => {
  it('frees the heap that unreachable objects hold, now, and can be called again', () => {
    let garbage: string[] | undefined = Array.from({ length: 400_000 }, (_, i) => `a string that lives in the old generation ${i}`);
    collectGarbage(); // the strings survive this one: they are still reachable, and move to the old generation
    const held = process.memoryUsage().heapUsed;
    expect(garbage.length).toBe(400_000);
    garbage = undefined;
    collectGarbage();
    const after = process.memoryUsage().heapUsed;
    expect(garbage).toBeUndefined();
    expect(held - after).toBeGreaterThan(20 * 1024 * 1024);
  });
});
