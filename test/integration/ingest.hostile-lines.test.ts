import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { HOSTILE_CLIENT, HOSTILE_CUSTOMER, HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { afford } from '../helpers/cli.js';
import { expectHostileOutcomes } from '../helpers/hostile.js';
import { silentLogger } from '../helpers/store.js';
import { ServiceUnderTest } from '../helpers/webhooks.js';
import { rowsAs } from '../helpers/rows.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runCli = (args: string[], extraEnv: Record<string, string>) => afford(args, { ...process.env, ...extraEnv });

describe('hostile lines through afford ingest file', () => {
  it('stores or dead-letters each line exactly as expected, and finishes', async () => {
    expect(HOSTILE_LINES.length).toBeGreaterThanOrEqual(60);
    const file = path.join(dir, 'hostile.ndjson');
    // A byte order mark opens the file, as some editors write it: skipped, the first line still counts.
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    writeFileSync(file, Buffer.concat([bom, ...HOSTILE_LINES.flatMap((l) => [l.bytes, Buffer.from('\n')])]));
    const db = path.join(dir, 'hostile.duckdb');

    // Small batches, so that hostile lines share batches with valid ones.
    const run = await runCli(['ingest', 'file', file, '--batch', '7'], { AFFORD_DB: db, AFFORD_LOG_LEVEL: 'warn' });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    const dead = HOSTILE_LINES.filter((l) => l.outcome !== 'stored').length;
    const stored = HOSTILE_LINES.length - dead;
    expect(run.stdout).toContain(`read ${HOSTILE_LINES.length}, inserted ${stored}, updated 0, deleted 0, unchanged 0, dead letters ${dead}`);

    const store = await Store.open(db, silentLogger);
    try {
      await expectHostileOutcomes(store, HOSTILE_LINES, 'line_number', (i) => String(i + 1));
    } finally {
      await store.close();
    }

    // Read again, the file changes nothing and adds no second dead letter.
    const again = await runCli(['ingest', 'file', file, '--batch', '7'], { AFFORD_DB: db, AFFORD_LOG_LEVEL: 'warn' });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`inserted 0, updated 0, deleted 0, unchanged ${stored}`);
    const store2 = await Store.open(db, silentLogger);
    try {
      await expectHostileOutcomes(store2, HOSTILE_LINES, 'line_number', (i) => String(i + 1));
    } finally {
      await store2.close();
    }
  });
});

describe('hostile lines through POST /v2/ingest/transactions', () => {
  it('answers 202 or a 4xx with the error body for each, never 500, and stores exactly the accepted ones', async () => {
    const service = await ServiceUnderTest.open(path.join(dir, 'http.duckdb'), { api: true });
    try {
      const headers = { ...(await service.auth(HOSTILE_CLIENT)), 'content-type': 'application/json' };
      for (const line of HOSTILE_LINES) {
        const res = await fetch(`${service.base}/v2/ingest/transactions`, { method: 'POST', headers, body: new Uint8Array(line.http.body) });
        const text = await res.text();
        expect(res.status, `${line.name}: ${text.slice(0, 300)}`).toBe(line.http.status);
        if (res.status >= 400) {
          const body = JSON.parse(text) as Record<string, unknown>;
          expect(Object.keys(body).sort(), line.name).toEqual(expect.arrayContaining(['code_id', 'errors', 'message', 'operation_id']));
        }
      }
      const stored = await service.store.read((c) => rowsAs<{ transaction_id: string }>(c, 'SELECT transaction_id FROM transactions'));
      const expected = HOSTILE_LINES.flatMap((l) => (l.http.stored ? [l.stored?.transactionId as string] : []));
      expect(stored.map((t) => t.transaction_id).sort()).toEqual([...new Set(expected)].sort());
      // Still up.
      expect((await fetch(`${service.base}/healthz`)).status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('takes the accepted ones together in one request, rejecting in the task only what the pipeline refuses', async () => {
    const service = await ServiceUnderTest.open(path.join(dir, 'http-batch.duckdb'), { api: true });
    try {
      const accepted = HOSTILE_LINES.filter((l) => l.http.status === 202);
      const transactions = accepted.flatMap((l) => (JSON.parse(l.http.body.toString('utf8')) as Array<{ transactions: unknown[] }>)[0]?.transactions ?? []);
      const res = await service.call<{ data: { task_id: string } }>('POST', '/v2/ingest/transactions', {
        headers: await service.auth(HOSTILE_CLIENT),
        body: [{ customer_id: HOSTILE_CUSTOMER, transactions }],
      });
      expect(res.status).toBe(202);
      const stored = accepted.filter((l) => l.http.stored);
      const [task] = await service.store.read((c) => rowsAs<{ detail: string }>(c, `SELECT detail::VARCHAR AS detail FROM tasks WHERE task_id = '${res.body.data.task_id}'`));
      // Transactions with the same id count once as inserted, then as updated.
      const ids = new Set(stored.map((l) => l.stored?.transactionId));
      expect(JSON.parse(task?.detail ?? '{}')).toMatchObject({ transactions: accepted.length, inserted: ids.size, rejected: accepted.length - stored.length });
      const rows = await service.store.read((c) => rowsAs<{ transaction_id: string }>(c, 'SELECT transaction_id FROM transactions'));
      expect(rows.map((t) => t.transaction_id).sort()).toEqual([...ids].sort());
    } finally {
      await service.close();
    }
  });
});
