import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import { fixturePath, rows, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;
const TOTALS_SQL = `SELECT account_id, strftime(month, '%Y-%m') AS month, category_l1 || '/' || category_l2 AS category, direction,
  total, transaction_count FROM monthly_category_totals ORDER BY month, account_id, category, direction`;

// Computed by hand from test/fixtures/hand-computed.ndjson.
const EXPECTED_TOTALS = [
  { account_id: 'acc-1', month: '2024-01', category: 'food_and_drink/groceries', direction: 'debit', total: '82.10', transaction_count: 2 },
  { account_id: 'acc-1', month: '2024-01', category: 'income/salary', direction: 'credit', total: '2500.00', transaction_count: 1 },
  { account_id: 'acc-1', month: '2024-01', category: 'mortgage_and_rent/rent', direction: 'debit', total: '950.00', transaction_count: 1 },
  { account_id: 'acc-1', month: '2024-01', category: 'transfers/between_own_accounts', direction: 'debit', total: '200.00', transaction_count: 1 },
  { account_id: 'acc-2', month: '2024-01', category: 'transfers/between_own_accounts', direction: 'credit', total: '200.00', transaction_count: 1 },
  { account_id: 'acc-1', month: '2024-02', category: 'food_and_drink/groceries', direction: 'debit', total: '0.01', transaction_count: 1 },
  { account_id: 'acc-1', month: '2024-03', category: 'income/salary', direction: 'credit', total: '2500.00', transaction_count: 1 },
];

describe('ingestFile on the hand-computed fixture', () => {
  let ctx: Ctx;
  beforeEach(async () => {
    ctx = await tempStore();
  });
  afterEach(async () => ctx.cleanup());

  it('applies latest-wins, deletions and replays, and keeps the monthly totals right', async () => {
    const summary = await ingestFile(ctx.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 1000 });
    expect(summary).toMatchObject({ read: 19, inserted: 12, updated: 2, deleted: 1, skipped: 2, deadLetters: 2 });
    expect(await rows(ctx.store, TOTALS_SQL)).toEqual(EXPECTED_TOTALS);
    const dead = await rows<{ line_number: string; reason: string }>(ctx.store, 'SELECT line_number, reason FROM dead_letters ORDER BY line_number');
    expect(dead.map((d) => d.line_number)).toEqual(['17', '18']);
    expect(dead[0]?.reason).toMatch(/invalid JSON/);
    expect(dead[1]?.reason).toMatch(/data\.amount\.value/);
  });

  it('gives the same tables with one event per batch', async () => {
    const summary = await ingestFile(ctx.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 1 });
    expect(summary).toMatchObject({ read: 19, inserted: 12, updated: 2, deleted: 1, skipped: 2, deadLetters: 2 });
    expect(await rows(ctx.store, TOTALS_SQL)).toEqual(EXPECTED_TOTALS);
  });

  it('changes nothing when the same file is ingested twice', async () => {
    await ingestFile(ctx.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 4 });
    const before = await rows(ctx.store, 'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY transaction_id');
    const again = await ingestFile(ctx.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 4 });
    expect(again.inserted + again.updated + again.deleted).toBe(0);
    expect(await rows(ctx.store, 'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY transaction_id')).toEqual(before);
    expect(await rows(ctx.store, TOTALS_SQL)).toEqual(EXPECTED_TOTALS);
    expect(await rows(ctx.store, 'SELECT count(*)::INTEGER AS n FROM dead_letters')).toEqual([{ n: 2 }]);
  });
});
