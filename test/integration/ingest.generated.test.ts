import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildMonthlyTotals } from '../../jobs/rebuild-monthly-totals.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { parseEvent, type IngestEvent } from '../../src/domain/events.js';
import { generateEvents, type GenerateStats } from '../../src/generate/index.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { rows, silentLogger, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

describe('ingest of generated data with faults', () => {
  let ctx: Ctx;
  let file: string;
  let stats: GenerateStats;
  const lines: string[] = [];
  const valid = (): IngestEvent[] => lines.flatMap((l) => {
    const p = parseEvent(l);
    return p.ok ? [p.event] : [];
  });

  beforeAll(async () => {
    ctx = await tempStore();
    const gen = generateEvents({ customers: 60, months: 6, seed: 11, faults: true, endMonth: '2024-06' });
    for (;;) {
      const next = gen.next();
      if (next.done) {
        stats = next.value;
        break;
      }
      lines.push(next.value);
    }
    file = path.join(ctx.dir, 'events.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
  });
  afterAll(async () => ctx.cleanup());

  it('gives exactly the expected dead letters and live transactions, with no duplicates', async () => {
    expect(stats.faults.invalid).toBeGreaterThan(0);
    const summary = await ingestFile(ctx.pipeline, file, { batchRows: 700 });
    expect(summary.read).toBe(stats.lines);
    expect(summary.deadLetters).toBe(stats.expected.deadLetters);
    expect(summary.deleted).toBe(stats.faults.deletions);
    const [counts] = await rows<{ live: number; distinct_ids: number; dead: number }>(
      ctx.store,
      `SELECT (SELECT count(*) FROM transactions)::INTEGER AS live,
              (SELECT count(DISTINCT (customer_id, transaction_id)) FROM transactions)::INTEGER AS distinct_ids,
              (SELECT count(*) FROM dead_letters)::INTEGER AS dead`,
    );
    expect(counts).toEqual({ live: stats.expected.liveTransactions, distinct_ids: stats.expected.liveTransactions, dead: stats.expected.deadLetters });
  });

  it('ignores the stale versions: every stored amount is the latest version from the file', async () => {
    const stale = valid().filter((e) => e.event_id.endsWith('-stale') && e.type === 'transaction.upserted');
    expect(stale.length).toBe(stats.faults.stale);
    const ids = stale.map((e) => (e.type === 'transaction.upserted' ? e.data.transaction_id : ''));
    const stored = await rows<{ event_id: string }>(ctx.store, `SELECT event_id FROM transactions WHERE transaction_id IN (${ids.map((i) => `'${i}'`).join(',')})`);
    expect(stored.every((r) => !r.event_id.endsWith('-stale'))).toBe(true);
  });

  it('changes nothing on a second ingest of the same file', async () => {
    const snapshot = 'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY customer_id, transaction_id';
    const before = await rows(ctx.store, snapshot);
    const again = await ingestFile(ctx.pipeline, file, { batchRows: 1000 });
    expect({ inserted: again.inserted, updated: again.updated, deleted: again.deleted }).toEqual({ inserted: 0, updated: 0, deleted: 0 });
    expect(await rows(ctx.store, snapshot)).toEqual(before);
    expect(await rows(ctx.store, 'SELECT count(*)::INTEGER AS n FROM dead_letters')).toEqual([{ n: stats.expected.deadLetters }]);
  });

  it('keeps the incremental monthly totals equal to a from-scratch rebuild', async () => {
    const result = await runJob(rebuildMonthlyTotals, { store: ctx.store, config: loadConfig({}), logger: silentLogger }, 'cli');
    expect(result.results['measure-drift']).toMatchObject({ drift_rows: 0 });
    expect(Number(result.results['measure-drift']?.['rows_checked'])).toBeGreaterThan(1000);
  });

  it('sums each customer-month in the table to the same figure as the file', async () => {
    // Independent check in TypeScript: replay the file's rules by hand.
    const latest = new Map<string, { v: string; del: boolean; month: string; amount: number; status: string; dir: string }>();
    for (const e of valid()) {
      if (e.type !== 'transaction.upserted' && e.type !== 'transaction.deleted') continue;
      const d = e.data as { transaction_id: string; amount?: { value: string }; date_time?: string; status?: string; credit_debit_indicator?: string };
      const key = `${e.customer_id}/${d.transaction_id}`;
      const v = `${new Date(e.occurred_at ?? '').toISOString()}|${e.event_id}`;
      const prev = latest.get(key);
      if (prev && prev.v >= v) continue;
      latest.set(key, e.type === 'transaction.deleted'
        ? { v, del: true, month: '', amount: 0, status: '', dir: '' }
        : { v, del: false, month: (d.date_time ?? '').slice(0, 7), amount: Math.round(Number(d.amount?.value) * 100), status: d.status ?? 'booked', dir: d.credit_debit_indicator ?? '' });
    }
    const expected = new Map<string, number>();
    for (const [key, t] of latest) {
      if (t.del || t.status === 'declined') continue;
      const k = `${key.split('/')[0]}|${t.month}|${t.dir}`;
      expected.set(k, (expected.get(k) ?? 0) + t.amount);
    }
    const actual = await rows<{ k: string; cents: string }>(ctx.store,
      `SELECT customer_id || '|' || strftime(month, '%Y-%m') || '|' || direction AS k, (sum(total) * 100)::BIGINT::VARCHAR AS cents
       FROM monthly_category_totals GROUP BY ALL`);
    expect(new Map(actual.map((r) => [r.k, Number(r.cents)]))).toEqual(expected);
  });
});
