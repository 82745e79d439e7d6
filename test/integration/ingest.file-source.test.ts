import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { FoundRows } from '../../src/ingest/fast-rows.js';
import type { IngestPipeline } from '../../src/ingest/pipeline.js';
import { emptyResult, type RawItem } from '../../src/ingest/types.js';
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

describe('ingestFile with batches in turn', () => {
  it("hands each line over for its batch's fast rows as it is read, while the batch before it is still being written, and hands the rows to its write", async () => {
    const events: string[] = [];
    let release: (() => void) | undefined;
    const pipeline = {
      rowsAhead: () => {
        const seen: RawItem[] = [];
        return {
          add: (item: RawItem) => {
            if (seen.length === 0) events.push(`ahead ${item.ref.lineNumber}`);
            seen.push(item);
          },
          end: () => {
            events.push(`end ${seen[0]?.ref.lineNumber} after ${seen.length}`);
            return Promise.resolve({ rows: [], slow: seen.map((_, i) => i) });
          },
        };
      },
      ingest: async (items: readonly RawItem[], _hook?: unknown, found?: Promise<FoundRows>) => {
        const first = items[0]?.ref.lineNumber;
        events.push(`write ${first}${found ? ' with its rows' : ''}`);
        // The first batch's write is held until the second batch has been read and asked for.
        if (first === 1) await new Promise<void>((resolve) => (release = resolve));
        events.push(`committed ${first}`);
        return { ...emptyResult(), read: items.length };
      },
    };
    // Released once the second batch is asked for, or after a second at the latest, so that a source that asks too late fails rather than hangs.
    const deadline = Date.now() + 1000;
    const whenAsked = setInterval(() => {
      if (events.includes('end 4 after 3') || Date.now() > deadline) release?.();
    }, 5);
    try {
      await ingestFile(pipeline as unknown as IngestPipeline, fixturePath('hand-computed.ndjson'), { batchRows: 3 });
    } finally {
      clearInterval(whenAsked);
    }
    expect(events.slice(0, 7)).toEqual(['ahead 1', 'end 1 after 3', 'write 1 with its rows', 'ahead 4', 'end 4 after 3', 'committed 1', 'write 4 with its rows']);
  });

  it('fails with the error of a batch that fails while the next is still being read, rather than ending the process, and reads no further', async () => {
    // Lines come through a named pipe: the first batch, then the rest only after the first batch's write has failed.
    const dir = mkdtempSync(path.join(tmpdir(), 'afford-fifo-'));
    const fifo = path.join(dir, 'slow.ndjson');
    execFileSync('mkfifo', [fifo]);
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown): void => void unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    let writes = 0;
    const pipeline = {
      rowsAhead: () => undefined,
      ingest: async () => {
        writes += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error('the store is at fault');
      },
    };
    const writer = createWriteStream(fifo);
    writer.on('error', () => undefined);
    const writing = (async () => {
      writer.write('{"n":1}\n'.repeat(5));
      await new Promise((resolve) => setTimeout(resolve, 300));
      writer.write('{"n":2}\n'.repeat(50));
      writer.end();
    })();
    try {
      await expect(ingestFile(pipeline as unknown as IngestPipeline, fifo, { batchRows: 5 })).rejects.toThrow('the store is at fault');
      // Unhandled rejections are reported after the turn they happen in: give one the time to show.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(writes).toBe(1);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await writing;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
