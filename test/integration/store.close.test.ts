import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { errorCode } from '../../src/domain/errors.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-close-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store with enough in it that its closing checkpoint takes a while. */
async function opened(name: string): Promise<Store> {
  const store = await Store.open(path.join(dir, `${name}.duckdb`), silentLogger, { threads: 1 });
  await store.write(async (conn) => {
    await conn.run('CREATE TABLE t AS SELECT range AS x, md5(range::VARCHAR) AS y FROM range(300000)');
  });
  return store;
}

const codeOf = (p: Promise<unknown>): Promise<unknown> => p.then(() => 'done', (err: unknown) => errorCode(err) ?? err);

describe('closing the store', () => {
  it('runs what was queued on the writer while it closed before it closes, never beside its checkpoint, and refuses what comes after', async () => {
    const store = await opened('queued');
    // Whether the store was still open each time the writer connection was handed to a late statement.
    const openWhenRun: boolean[] = [];
    const closing = store.close();
    // Queued after close was asked for, before it finished: a job setting DuckDB's settings back as the service stops.
    const setting = store.writeUntransacted(async (conn) => {
      openWhenRun.push(store.isOpen);
      await conn.run("SET memory_limit = '1GB'");
    });
    const write = store.write(async (conn) => {
      openWhenRun.push(store.isOpen);
      return rowsAs(conn, 'SELECT count(*)::INTEGER AS n FROM t');
    });
    expect(await codeOf(setting)).toBe('done');
    expect(await write).toEqual([{ n: 300000 }]);
    await closing;
    expect(openWhenRun).toEqual([true, true]);
    // After it closed: refused, and the connection is never used.
    let ran = false;
    const after = store.writeUntransacted(async () => {
      ran = true;
    });
    expect(await codeOf(after)).toBe('STORE_CLOSED');
    expect(await codeOf(store.write(async () => undefined))).toBe('STORE_CLOSED');
    expect(ran).toBe(false);
    // A checkpoint asked of a closed store has nothing left to do.
    await expect(store.checkpoint()).resolves.toBeUndefined();
  });

  it('closes once when asked twice at once, and again later', async () => {
    const store = await opened('twice');
    const first = store.close();
    const second = store.close();
    expect(second).toBe(first);
    await Promise.all([first, second]);
    await expect(store.close()).resolves.toBeUndefined();
    // The file is whole: it opens again with its rows.
    const again = await Store.open(path.join(dir, 'twice.duckdb'), silentLogger);
    try {
      expect(await again.read((conn) => rowsAs(conn, 'SELECT count(*)::INTEGER AS n FROM t'))).toEqual([{ n: 300000 }]);
    } finally {
      await again.close();
    }
  });
});
