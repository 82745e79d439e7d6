import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, storeOptions } from '../../src/config.js';
import { Store } from '../../src/db/store.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';
import { afford } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SETTINGS = `SELECT current_setting('memory_limit') AS memory_limit,
  current_setting('allocator_flush_threshold') AS flush,
  current_setting('allocator_bulk_deallocation_flush_threshold') AS bulk_flush`;

/** What `sql` reads on the writer connection of a store opened, as afford opens it, with the settings `env` gives. */
async function openedWith(name: string, env: Record<string, string>, sql: string): Promise<unknown[]> {
  const config = loadConfig({}, { AFFORD_DB: path.join(dir, `${name}.duckdb`), ...env });
  const store = await Store.open(config.AFFORD_DB, silentLogger, storeOptions(config));
  try {
    return await store.write((conn) => rowsAs(conn, sql));
  } finally {
    await store.close();
  }
}

describe('the memory settings reach DuckDB', () => {
  it('opens the store with AFFORD_DB_MEMORY_LIMIT as memory_limit and the early allocator flush, on every connection', async () => {
    const config = loadConfig({}, { AFFORD_DB: path.join(dir, 'a.duckdb'), AFFORD_DB_MEMORY_LIMIT: '96MB' });
    const store = await Store.open(config.AFFORD_DB, silentLogger, { memoryLimit: config.AFFORD_DB_MEMORY_LIMIT });
    try {
      const want = [{ memory_limit: '91.5 MiB', flush: '15.2 MiB', bulk_flush: '15.2 MiB' }];
      expect(await store.read((conn) => rowsAs(conn, SETTINGS))).toEqual(want);
      expect(await store.write((conn) => rowsAs(conn, SETTINGS))).toEqual(want);
    } finally {
      await store.close();
    }
  });

  it("spills what does not fit the limit beside the store's file, on every connection", async () => {
    const db = path.join(dir, 'spill.duckdb');
    const store = await Store.open(db, silentLogger, { memoryLimit: '96MB' });
    try {
      const sql = "SELECT current_setting('temp_directory') AS temp_directory";
      expect(await store.read((conn) => rowsAs(conn, sql))).toEqual([{ temp_directory: `${db}.tmp` }]);
      expect(await store.write((conn) => rowsAs(conn, sql))).toEqual([{ temp_directory: `${db}.tmp` }]);
    } finally {
      await store.close();
    }
  });

  it("opens a store whose path holds a quote and dollar signs at that very path", async () => {
    const db = path.join(dir, "it's $$ and $& here", 'store.duckdb');
    const store = await Store.open(db, silentLogger);
    try {
      await store.write((conn) => rowsAs(conn, "INSERT INTO api_clients (client_id, name, secret_hash) VALUES ('c-1', 'one', 'x') RETURNING client_id"));
    } finally {
      await store.close();
    }
    expect(existsSync(db)).toBe(true);
    const again = await Store.open(db, silentLogger);
    try {
      expect(await again.read((conn) => rowsAs(conn, 'SELECT client_id FROM api_clients'))).toEqual([{ client_id: 'c-1' }]);
    } finally {
      await again.close();
    }
  });

  it('keeps the default limit of the settings table, 96MB', async () => {
    const config = loadConfig({}, { AFFORD_DB: path.join(dir, 'b.duckdb') });
    const store = await Store.open(config.AFFORD_DB, silentLogger, { memoryLimit: config.AFFORD_DB_MEMORY_LIMIT });
    try {
      expect(await store.read((conn) => rowsAs<{ memory_limit: string }>(conn, SETTINGS))).toMatchObject([{ memory_limit: '91.5 MiB' }]);
    } finally {
      await store.close();
    }
  });

  it('opens the read-only instance of `afford sql` with the same limit and flush', async () => {
    const db = path.join(dir, 'c.duckdb');
    const store = await Store.open(db, silentLogger);
    await store.close();
    const run = await afford(['sql', '--db', db, '--csv', SETTINGS], { ...process.env, AFFORD_DB: db, AFFORD_DB_MEMORY_LIMIT: '96MB' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('memory_limit,flush,bulk_flush\n91.5 MiB,15.2 MiB,15.2 MiB\n');
  });
});

describe('the threads setting reaches DuckDB', () => {
  const THREADS = "SELECT current_setting('threads')::INTEGER AS threads";

  it('opens the store with AFFORD_DB_THREADS, one unless set', async () => {
    expect(await openedWith('threads-default', {}, THREADS)).toEqual([{ threads: 1 }]);
    expect(await openedWith('threads-3', { AFFORD_DB_THREADS: '3' }, THREADS)).toEqual([{ threads: 3 }]);
  });

  it('refuses a number of threads that is not a whole number from one up, naming the setting', () => {
    expect(() => loadConfig({}, { AFFORD_DB_THREADS: '0' })).toThrow(/AFFORD_DB_THREADS/);
  });
});

describe('the checkpoint threshold reaches DuckDB', () => {
  const THRESHOLD = "SELECT current_setting('checkpoint_threshold') AS threshold";

  it('opens the store with AFFORD_DB_CHECKPOINT_THRESHOLD, 64MB unless set, so that a long ingest neither checkpoints every batch nor fills DuckDB\'s memory', async () => {
    expect(await openedWith('threshold-default', {}, THRESHOLD)).toEqual([{ threshold: '61.0 MiB' }]);
    expect(await openedWith('threshold-1g', { AFFORD_DB_CHECKPOINT_THRESHOLD: '1GB' }, THRESHOLD)).toEqual([{ threshold: '953.6 MiB' }]);
  });

  it('refuses a threshold that is not a size, naming the setting', () => {
    expect(() => loadConfig({}, { AFFORD_DB_CHECKPOINT_THRESHOLD: 'lots' })).toThrow(/AFFORD_DB_CHECKPOINT_THRESHOLD/);
  });
});
