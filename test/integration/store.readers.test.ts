import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, storeOptions } from '../../src/config.js';
import { Store } from '../../src/db/store.js';
import { silentLogger } from '../helpers/store.js';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('reads of the store, at most AFFORD_DB_READERS at once', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'afford-readers-'));
    store = await Store.open(path.join(dir, 'afford.duckdb'), silentLogger, { readers: 2 });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs two of five reads at once, and the others in the order they asked as turns come free', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const reads = gates.map((g, i) =>
      store.read(async (conn) => {
        running++;
        most = Math.max(most, running);
        started.push(i);
        // A real query on the reader connection, then held open until the test lets it go.
        const n = Number((await conn.runAndReadAll(`SELECT ${i} + 1 AS n`)).getRows()[0]?.[0]);
        await g.opened;
        running--;
        return n;
      }),
    );
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await settle();
    // The first two start together (which of them first depends on their connections opening); the rest wait, in order.
    expect([...started].sort()).toEqual([0, 1]);
    gates[1]?.open();
    await settle();
    expect(started.slice(2)).toEqual([2]);
    gates[0]?.open();
    await settle();
    expect(started.slice(2)).toEqual([2, 3]);
    for (const g of gates) g.open();
    expect(await Promise.all(reads)).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('runs a read made inside another at once, even when every turn is taken', async () => {
    const held = gate();
    const inner: number[] = [];
    const outer = [0, 1].map(() =>
      store.read(async () => {
        // Both turns taken by the two reads around it: the read inside needs none of its own.
        inner.push(await store.read(async (conn) => Number((await conn.runAndReadAll('SELECT 42')).getRows()[0]?.[0])));
        await held.opened;
        return inner.length;
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    // Answered while the two around them still hold both turns.
    expect(inner).toEqual([42, 42]);
    held.open();
    expect(await Promise.all(outer)).toEqual([2, 2]);
  });

  it('reads the setting: 2 by default, any whole number from 1, and refuses anything else', () => {
    expect(storeOptions(loadConfig({})).readers).toBe(2);
    expect(storeOptions(loadConfig({}, { AFFORD_DB_READERS: '6' })).readers).toBe(6);
    expect(() => loadConfig({}, { AFFORD_DB_READERS: '0' })).toThrow(/AFFORD_DB_READERS/);
    expect(() => loadConfig({}, { AFFORD_DB_READERS: 'all' })).toThrow(/AFFORD_DB_READERS/);
  });
});
