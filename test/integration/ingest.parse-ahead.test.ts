import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { buildPipeline } from '../../src/app/pipeline.js';
import { generateEvents } from '../../src/generate/index.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { FAST_PATH_MIN_ROWS } from '../../src/ingest/pipeline.js';
import { overflowCust1April, salaryLine } from '../helpers/overflow.js';
import { rows, silentLogger, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

/** Every table an ingest leaves, in an order two stores can be compared by. */
async function tables(ctx: Ctx): Promise<Record<string, unknown[]>> {
  const q = (sql: string) => rows(ctx.store, sql);
  return {
    transactions: await q('SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY ALL'),
    totals: await q('SELECT * FROM monthly_category_totals ORDER BY ALL'),
    customers: await q('SELECT client_id, customer_id, hosted FROM customers ORDER BY ALL'),
    dead: await q('SELECT source_ref, line_number, reason FROM dead_letters ORDER BY ALL'),
  };
}

/**
 * Generated events as a file in the store's folder. `prefix` goes before
 * every customer and event id, so that two files share no customer, no
 * transaction and no event.
 */
function eventFile(ctx: Ctx, name: string, customers: number, seed: number, prefix = ''): string {
  const file = path.join(ctx.dir, name);
  const lines = [...generateEvents({ customers, months: 6, seed, faults: true, endMonth: '2024-06' })]
    .map((l) => l.trimEnd().replaceAll('"customer_id":"', `"customer_id":"${prefix}`).replaceAll('"event_id":"', `"event_id":"${prefix}`));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const scratchRows = async (ctx: Ctx): Promise<number> => {
  const [r] = await rows<{ n: number }>(ctx.store, 'SELECT count(*)::INTEGER AS n FROM afford_scratch.fast_staged');
  return Number(r?.n);
};

describe('a file ingest parses each batch beside the writer', () => {
  let ctx: Ctx;
  beforeEach(async () => {
    ctx = await tempStore();
  });
  afterEach(async () => ctx.cleanup());

  it('parses the next batch while the one before is being written, and ends with the tables of a batch-at-a-time ingest', async () => {
    const file = eventFile(ctx, 'events.ndjson', 40, 5);
    // When each parse beside the writer and each write ran.
    const spans: { kind: 'parse' | 'write' | 'other'; start: number; end: number }[] = [];
    const timed = <T>(kind: 'parse' | 'write', run: (fn: (c: DuckDBConnection) => Promise<T>) => Promise<T>) => async (fn: (c: DuckDBConnection) => Promise<T>) => {
      // Beside the writer, only the parses count, not the drops of what a write took: a parse appends the raw lines.
      const span: (typeof spans)[number] = { kind: kind === 'parse' ? 'other' : kind, start: performance.now(), end: Infinity };
      spans.push(span);
      const watched = (c: DuckDBConnection): DuckDBConnection => new Proxy(c, {
        get(target, key) {
          if (key === 'createAppender' && kind === 'parse') span.kind = 'parse';
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      try {
        return await run((c) => fn(watched(c)));
      } finally {
        span.end = performance.now();
      }
    };
    const store = ctx.store;
    const beside = store.beside.bind(store);
    const write = store.write.bind(store);
    store.beside = timed('parse', beside) as typeof store.beside;
    store.write = timed('write', write) as typeof store.write;
    const summary = await ingestFile(ctx.pipeline, file, { batchRows: FAST_PATH_MIN_ROWS });
    expect(summary.read).toBeGreaterThan(4 * FAST_PATH_MIN_ROWS);

    const parses = spans.filter((s) => s.kind === 'parse');
    const writes = spans.filter((s) => s.kind === 'write');
    expect(parses.length).toBeGreaterThanOrEqual(4);
    // Some parse ran while a write was under way: the two overlapped in time.
    const overlapping = parses.filter((p) => writes.some((w) => p.start < w.end && w.start < p.end));
    expect(overlapping.length).toBeGreaterThan(0);

    // The same file, one batch parsed and written after another, into a second store.
    const other = await tempStore();
    try {
      await ingestFile(other.pipeline, file, { batchRows: FAST_PATH_MIN_ROWS * 100 });
      expect(await tables(ctx)).toEqual(await tables(other));
    } finally {
      await other.cleanup();
    }
    // What the parse left beside the writer is gone once taken.
    await store.beside(async () => undefined);
    expect(await scratchRows(ctx)).toBe(0);
  });

  it('keeps two pipelines that ingest into one store at once apart: each batch is written with its own parsed rows', async () => {
    // Disjoint, so that what each pipeline reports does not depend on the order the two commit in.
    const a = eventFile(ctx, 'a.ndjson', 20, 11, 'a-');
    const b = eventFile(ctx, 'b.ndjson', 20, 12, 'b-');
    const second = buildPipeline(ctx.store, silentLogger);
    const [ra, rb] = await Promise.all([
      ingestFile(ctx.pipeline, a, { batchRows: FAST_PATH_MIN_ROWS }),
      ingestFile(second, b, { batchRows: FAST_PATH_MIN_ROWS }),
    ]);
    const other = await tempStore();
    try {
      const sa = await ingestFile(other.pipeline, a, { batchRows: FAST_PATH_MIN_ROWS });
      const sb = await ingestFile(other.pipeline, b, { batchRows: FAST_PATH_MIN_ROWS });
      expect(ra.read + rb.read).toBeGreaterThan(4 * FAST_PATH_MIN_ROWS);
      expect([ra, rb]).toEqual([sa, sb]);
      expect(await tables(ctx)).toEqual(await tables(other));
    } finally {
      await other.cleanup();
    }
  });

  it('goes on to the next batch when the store rejects an event of one: that event is a dead letter, the rest of both batches go in', async () => {
    await overflowCust1April(ctx);
    const lines = Array.from({ length: 3 * FAST_PATH_MIN_ROWS }, (_, i) => salaryLine(i + 1, 'cust-2', '2024-03'));
    lines[100] = salaryLine(101, 'cust-1', '2024-04');
    const file = path.join(ctx.dir, 'poison.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const summary = await ingestFile(ctx.pipeline, file, { batchRows: FAST_PATH_MIN_ROWS });
    expect(summary).toMatchObject({ read: 3 * FAST_PATH_MIN_ROWS, inserted: 3 * FAST_PATH_MIN_ROWS - 1, deadLetters: 1 });
    const dead = await rows<{ line_number: string; reason: string }>(ctx.store, 'SELECT line_number, reason FROM dead_letters');
    expect(dead.map((d) => [Number(d.line_number), d.reason.slice(0, 26)])).toEqual([[101, 'store rejected the event: ']]);
    const [march] = await rows<{ n: number }>(ctx.store, "SELECT transaction_count AS n FROM monthly_category_totals WHERE customer_id = 'cust-2'");
    expect(march?.n).toBe(3 * FAST_PATH_MIN_ROWS - 1);
  });
});
