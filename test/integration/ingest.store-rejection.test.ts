import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/store.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { startApi, newClientHeaders } from '../helpers/api.js';
import { rows, tempStore } from '../helpers/store.js';
import { ServiceUnderTest, tempDbPath, transactionData } from '../helpers/webhooks.js';
import { rowsAs } from '../helpers/rows.js';

const CLIENT = 'client-a';

function salary(transactionId: string, month: string, amount = '5.00') {
  return {
    ...transactionData(transactionId, { amount, dateTime: `${month}-02T09:00:00Z` }),
    credit_debit_indicator: 'credit',
    enrichments: { categories: { l1: { slug: 'income' }, l2: { slug: 'salary' } } },
  };
}
const event = (n: number, customerId: string, data: object) =>
  JSON.stringify({ event_id: `ev-${n}`, type: 'transaction.upserted', occurred_at: '2024-05-01T00:00:00Z', client_id: CLIENT, customer_id: customerId, data });

/**
 * A total the store cannot hold, as data written before amounts were bounded
 * can give: cust-1's April salary already sums to the largest DECIMAL(18,2),
 * so any later transaction in that month makes the monthly total overflow
 * in SQL, after validation has passed it.
 */
async function poisonApril(store: Store, write: (lines: string[]) => Promise<unknown>): Promise<void> {
  await write([event(0, 'cust-1', salary('tx-legacy', '2024-04', '1.00'))]);
  await store.write((conn) => conn.run("UPDATE transactions SET amount = 9999999999999999.99 WHERE transaction_id = 'tx-legacy'"));
}

describe('an event the store rejects after validation', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeEach(async () => {
    ctx = await tempStore();
  });
  afterEach(async () => ctx.cleanup());

  it('is dead-lettered with the store error as its reason, alone, and the rest of the file batch goes in', async () => {
    const file = path.join(ctx.dir, 'events.ndjson');
    const writeFile = async (lines: string[]) => {
      writeFileSync(file, `${lines.join('\n')}\n`);
      return ingestFile(ctx.pipeline, file, { batchRows: 100 });
    };
    await poisonApril(ctx.store, writeFile);
    const lines = Array.from({ length: 12 }, (_, i) => event(i + 1, i % 2 ? 'cust-2' : 'cust-1', salary(`tx-${i + 1}`, '2024-03')));
    lines[6] = event(7, 'cust-1', salary('tx-7', '2024-04'));
    const summary = await writeFile(lines);

    expect(summary).toMatchObject({ read: 12, inserted: 11, updated: 0, deleted: 0, skipped: 0, deadLetters: 1 });
    const dead = await rows<{ line_number: string; reason: string }>(ctx.store, 'SELECT line_number, reason FROM dead_letters');
    expect(dead).toEqual([{ line_number: '7', reason: expect.stringMatching(/^store rejected the event: .*DECIMAL\(18,2\)/) }]);
    const stored = await rows<{ transaction_id: string }>(ctx.store, "SELECT transaction_id FROM transactions WHERE transaction_id <> 'tx-legacy' ORDER BY transaction_id");
    expect(stored.map((t) => t.transaction_id).sort()).toEqual(lines.map((_, i) => `tx-${i + 1}`).filter((id) => id !== 'tx-7').sort());
    const march = await rows(ctx.store, "SELECT customer_id, total::VARCHAR AS total, transaction_count FROM monthly_category_totals WHERE month = DATE '2024-03-01' ORDER BY 1");
    expect(march).toEqual([
      { customer_id: 'cust-1', total: '25.00', transaction_count: 5 },
      { customer_id: 'cust-2', total: '30.00', transaction_count: 6 },
    ]);
  });
});

describe('many events the store rejects in one batch', () => {
  it('are each dead-lettered when accepted events lie between them, and the batch goes in', async () => {
    const ctx = await tempStore();
    try {
      const file = path.join(ctx.dir, 'events.ndjson');
      const writeFile = async (lines: string[]) => {
        writeFileSync(file, `${lines.join('\n')}\n`);
        return ingestFile(ctx.pipeline, file, { batchRows: 1000 });
      };
      await poisonApril(ctx.store, writeFile);
      // 15 rejected events (cust-1, April), each followed by an accepted one (cust-2, March): more than any run limit.
      const lines = Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0 ? event(i + 1, 'cust-1', salary(`tx-${i + 1}`, '2024-04')) : event(i + 1, 'cust-2', salary(`tx-${i + 1}`, '2024-03')),
      );
      const summary = await writeFile(lines);
      expect(summary).toMatchObject({ read: 30, inserted: 15, deadLetters: 15 });
      const dead = await rows<{ line_number: string }>(ctx.store, 'SELECT line_number FROM dead_letters ORDER BY line_number::INTEGER');
      expect(dead.map((d) => Number(d.line_number))).toEqual(Array.from({ length: 15 }, (_, i) => 2 * i + 1));
      const march = await rows(ctx.store, "SELECT customer_id, total::VARCHAR AS total, transaction_count FROM monthly_category_totals WHERE month = DATE '2024-03-01'");
      expect(march).toEqual([{ customer_id: 'cust-2', total: '75.00', transaction_count: 15 }]);
    } finally {
      await ctx.cleanup();
    }
  });
});

describe('POST /v2/ingest/transactions with an event the store rejects', () => {
  it('answers 202 with the task, partly completed, which counts the event as rejected; the others are stored', async () => {
    const db = tempDbPath();
    const service = await ServiceUnderTest.open(db.dbPath, { api: true });
    try {
      await poisonApril(service.store, (lines) => service.ingest(lines.map((l) => JSON.parse(l) as object)));
      const body = [{ customer_id: 'cust-1', transactions: [salary('h-1', '2024-03'), salary('h-2', '2024-04'), salary('h-3', '2024-02')] }];
      const res = await service.call<{ data: { task_id: string; status: string } }>('POST', '/v2/ingest/transactions', { headers: await service.auth(CLIENT), body });
      expect(res.status).toBe(202);
      // Two of its three events written: the task is partly completed, and its customer's part names the third.
      expect(res.body.data.status).toBe('PartialCompleted');
      const [task] = await rows<{ detail: string }>(service.store, `SELECT detail::VARCHAR AS detail FROM tasks WHERE task_id = '${res.body.data.task_id}'`);
      expect(JSON.parse(task?.detail ?? '{}')).toMatchObject({ transactions: 3, inserted: 2, rejected: 1 });
      const dead = await rows<{ line_number: string; reason: string }>(service.store, "SELECT line_number, reason FROM dead_letters WHERE source = 'http'");
      expect(dead).toEqual([{ line_number: '2', reason: expect.stringMatching(/^store rejected the event: /) }]);
      const stored = await service.store.read((c) => rowsAs<{ transaction_id: string }>(c, "SELECT transaction_id FROM transactions WHERE transaction_id LIKE 'h-%' ORDER BY 1"));
      expect(stored).toEqual([{ transaction_id: 'h-1' }, { transaction_id: 'h-3' }]);
    } finally {
      await service.close();
      db.cleanup();
    }
  });
});

describe('category totals summed over months', () => {
  it('answer 200 when the sum is beyond DECIMAL(18,2)', async () => {
    const api = await startApi({ fixtures: ['hand-computed.ndjson'] });
    try {
      // Two accounts' totals for one month and category that each fit, and whose sum does not.
      await api.store.write(async (conn) => {
        await conn.run("UPDATE monthly_category_totals SET total = 9000000000000000.00 WHERE customer_id = 'cust-1' AND category_l2 = 'salary'");
        await conn.run(`INSERT INTO monthly_category_totals SELECT * REPLACE ('acc-2' AS account_id) FROM monthly_category_totals
                        WHERE customer_id = 'cust-1' AND category_l2 = 'salary' AND month = DATE '2024-01-01'`);
      });
      const headers = await newClientHeaders(api, CLIENT, 'cust-1');
      const res = await api.call<{ data: Array<{ name: string; credit_total: Array<{ amount: { value: string } }> }> }>(
        'GET',
        '/aggregations/v2/totals/categories?from=2024-01&to=2024-03',
        { headers },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.find((e) => e.name === 'income')?.credit_total[0]?.amount.value).toBe('27000000000000000.00');
    } finally {
      await api.close();
    }
  });
});
