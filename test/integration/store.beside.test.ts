import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-beside-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Whether `p` has settled once the event loop has had some turns. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return done;
}

let store: Store;
let n = 0;
beforeEach(async () => {
  store = await Store.open(path.join(dir, `s${n++}.duckdb`), silentLogger);
});
afterEach(async () => {
  await store.close();
});

// With DuckDB's memory at its limit, a COMMIT while the beside connection
// parsed corrupted a table in memory, and the next checkpoint invalidated the
// database. So the writer's COMMIT, and whatever else writes the store
// outside a transaction, waits until nothing runs beside.
describe('the writer commits only while nothing runs beside it', () => {
  it('holds a write\'s COMMIT until the beside work in hand is done, while its statements before the COMMIT run', async () => {
    const { opened, open } = gate();
    try {
      const parsing = store.beside(() => opened);
      let bodyRan = false;
      const write = store.write(async (conn) => {
        await conn.run('CREATE TABLE t AS SELECT 1 AS x');
        bodyRan = true;
      });
      expect(await settled(write)).toBe(false);
      expect(bodyRan).toBe(true);
      // Not committed: a reader does not see the table yet.
      expect(await store.read((conn) => rowsAs(conn, "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 't'"))).toEqual([{ n: 0 }]);
      open();
      await parsing;
      await write;
      expect(await store.read((conn) => rowsAs(conn, 'SELECT x FROM t'))).toEqual([{ x: 1 }]);
    } finally {
      open();
    }
  });

  it('holds a checkpoint and an untransacted statement the same way', async () => {
    for (const run of [() => store.checkpoint(), () => store.writeUntransacted((conn) => conn.run('SELECT 1'))]) {
      const { opened, open } = gate();
      try {
        const parsing = store.beside(() => opened);
        const writing = run();
        expect(await settled(writing)).toBe(false);
        open();
        await parsing;
        await writing;
      } finally {
        open();
      }
    }
  });

  it('holds beside work that comes during a COMMIT until the COMMIT is done', async () => {
    const order: string[] = [];
    const { opened, open } = gate();
    try {
      // An untransacted statement is held as a COMMIT is, here for as long as the test wants.
      const began = gate();
      const writing = store.writeUntransacted(async () => {
        began.open();
        await opened;
        order.push('written');
      });
      await began.opened;
      const parsing = store.beside(async () => void order.push('parsed'));
      expect(await settled(parsing)).toBe(false);
      open();
      await Promise.all([writing, parsing]);
      expect(order).toEqual(['written', 'parsed']);
    } finally {
      open();
    }
  });

  it('goes on after beside work that failed', async () => {
    await expect(store.beside(() => Promise.reject(new Error('a parse failed')))).rejects.toThrow('a parse failed');
    await store.write((conn) => conn.run('CREATE TABLE t AS SELECT 2 AS x'));
    expect(await store.read((conn) => rowsAs(conn, 'SELECT x FROM t'))).toEqual([{ x: 2 }]);
  });
});
