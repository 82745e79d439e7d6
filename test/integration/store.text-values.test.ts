import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rows, tempStore } from '../helpers/store.js';
import { item } from '../helpers/transaction-events.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let ctx: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  ctx = await tempStore();
});
afterEach(async () => {
  await ctx.cleanup();
});

// A text that begins with U+FEFF: stored as sent, and once read back without it (the DuckDB client took it for a byte order mark).
const LEADING = '\ufeffBOM first';

describe('text read back from the store', () => {
  it('keeps a U+FEFF at its start, through the store and through the command line', async () => {
    const result = await ctx.pipeline.ingest([
      item({
        event_id: 'ev-bom', type: 'transaction.upserted', occurred_at: '2024-05-01T00:00:00Z', client_id: 'client-a', customer_id: '\ufeffcust-bom',
        data: {
          transaction_id: '\ufefftx-bom', account_id: 'acc-1', credit_debit_indicator: 'debit', amount: { value: '1.00', currency: 'GBP' }, date_time: '2024-04-02T09:00:00Z',
          description: LEADING, tags: ['\ufefftag'], enrichments: { categories: { l1: { slug: 'food_and_drink' }, l2: { slug: 'groceries' } } },
        },
      }),
    ]);
    expect(result.deadLetters).toEqual([]);
    const read = await rows(ctx.store, 'SELECT customer_id, transaction_id, description, tags, length(description)::INTEGER AS n FROM transactions');
    expect(read).toEqual([{ customer_id: '\ufeffcust-bom', transaction_id: '\ufefftx-bom', description: LEADING, tags: ['\ufefftag'], n: LEADING.length }]);
    await ctx.store.close();
    // The command line runs from a bundle of the sources, with the DuckDB client inside it.
    const sql = spawnSync(process.execPath, ['bin/afford.mjs', 'sql', '--json', '--db', `${ctx.dir}/afford.duckdb`, 'SELECT description FROM transactions'], { cwd: ROOT, encoding: 'utf8' });
    expect(sql.stderr).toBe('');
    expect(JSON.parse(sql.stdout)).toEqual([{ description: LEADING }]);
  });
});
