import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseEvent, type IngestEvent } from '../../src/domain/events.js';
import { hasPair, UK_V2 } from '../../src/domain/taxonomy.js';
import { generateEvents, renderProgress, writeEvents, writeEventsFile, type GenerateOptions, type GenerateStats } from '../../src/generate/index.js';

const BASE: GenerateOptions = { customers: 60, months: 12, seed: 20240601, faults: false, endMonth: '2025-06' };

function run(opts: GenerateOptions): { lines: string[]; stats: GenerateStats } {
  const lines: string[] = [];
  const it = generateEvents(opts);
  for (let r = it.next(); ; r = it.next()) {
    if (r.done) return { lines, stats: r.value };
    lines.push(r.value);
  }
}

function parsed(lines: readonly string[]): IngestEvent[] {
  return lines.map((line) => {
    const r = parseEvent(line);
    if (!r.ok) throw new Error(`${r.reason}\n${line}`);
    return r.event;
  });
}

const clean = run(BASE);
const cleanEvents = parsed(clean.lines);
const faulty = run({ ...BASE, faults: true, customers: 150 });

function byCustomer<E extends IngestEvent>(events: readonly E[]): Map<string, E[]> {
  const map = new Map<string, E[]>();
  for (const e of events) map.set(e.customer_id, [...(map.get(e.customer_id) ?? []), e]);
  return map;
}

type Tx = Extract<IngestEvent, { type: 'transaction.upserted' }>;
const isTx = (e: IngestEvent): e is Tx => e.type === 'transaction.upserted';

describe('generateEvents determinism', () => {
  it('gives identical output for the same options and different output for another seed', () => {
    const small = { ...BASE, customers: 15, months: 3, faults: true };
    expect(run(small).lines).toEqual(run(small).lines);
    expect(run({ ...small, seed: small.seed + 1 }).lines).not.toEqual(run(small).lines);
  });

  it('gives each customer the same data whatever the number of customers', () => {
    const first = run({ ...BASE, customers: 5 }).lines;
    expect(clean.lines.slice(0, first.length)).toEqual(first);
  });

  it('writeEvents writes exactly the generated lines, and reports progress', async () => {
    const opts = { ...BASE, customers: 12, months: 2, faults: true };
    const chunks: string[] = [];
    const out = new Writable({ write(chunk: Buffer, _enc, cb) { chunks.push(chunk.toString()); cb(); }, highWaterMark: 1024 });
    const progress: number[] = [];
    const stats = await writeEvents(opts, out, (done, total) => { progress.push(done); expect(total).toBe(12); });
    const expected = run(opts);
    expect(chunks.join('')).toBe(expected.lines.map((l) => `${l}\n`).join(''));
    expect(stats).toEqual(expected.stats);
    expect(progress).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('writeEventsFile resolves once the file holds every generated line, and reports progress', async () => {
    const opts = { ...BASE, customers: 12, months: 2, faults: true };
    const dir = mkdtempSync(path.join(tmpdir(), 'afford-generate-'));
    try {
      const file = path.join(dir, 'events.ndjson');
      const progress: number[] = [];
      const stats = await writeEventsFile(opts, file, (done) => progress.push(done));
      const expected = run(opts);
      expect(readFileSync(file, 'utf8')).toBe(expected.lines.map((l) => `${l}\n`).join(''));
      expect(stats).toEqual(expected.stats);
      expect(progress).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('generated events', () => {
  it('all pass parseEvent when faults are off, with sane values', () => {
    expect(clean.stats.lines).toBe(clean.lines.length);
    expect(clean.stats.events).toBe(clean.lines.length);
    expect(clean.stats.faults).toEqual({ replays: 0, stale: 0, deletions: 0, invalid: 0 });
    for (const e of cleanEvents.filter(isTx)) {
      expect(e.data.amount.value).toMatch(/^\d+\.\d{2}$/);
      expect(Number(e.data.amount.value)).toBeGreaterThan(0);
      expect(hasPair(UK_V2, e.data.enrichments.categories.l1.slug, e.data.enrichments.categories.l2.slug)).toBe(true);
      expect(e.data.date_time >= '2024-07-01' && e.data.date_time < '2025-07-01').toBe(true);
    }
    for (const line of clean.lines) expect(line).toMatch(/"date_time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"|"type":"(account|application)\.upserted"/);
  });

  it('has 40 to 80 transactions per customer per month on average', () => {
    const perMonth = cleanEvents.filter(isTx).length / BASE.customers / BASE.months;
    expect(perMonth).toBeGreaterThan(40);
    expect(perMonth).toBeLessThan(80);
  });

  it('emits accounts first, then transactions by time, then the application', () => {
    for (const events of byCustomer(cleanEvents).values()) {
      const order = events.map((e) => e.type);
      const firstTx = order.indexOf('transaction.upserted');
      expect(order.slice(0, firstTx).every((t) => t === 'account.upserted')).toBe(true);
      expect(order.slice(firstTx).every((t, i, all) => t === 'transaction.upserted' || (t === 'application.upserted' && i === all.length - 1))).toBe(true);
      const times = events.filter(isTx).map((e) => e.data.date_time);
      expect(times).toEqual([...times].sort());
    }
  });

  it('collects council tax ten times in twelve months, never in February or March', () => {
    let payers = 0;
    for (const events of byCustomer(cleanEvents).values()) {
      const ctax = events.filter(isTx).filter((e) => e.data.enrichments.categories.l2.slug === 'council_tax');
      if (ctax.length === 0) continue;
      payers++;
      expect(ctax).toHaveLength(10);
      expect(ctax.some((e) => ['02', '03'].includes(e.data.date_time.slice(5, 7)))).toBe(false);
    }
    expect(payers).toBeGreaterThan(10);
  });

  it('records both legs of each transfer between own accounts, with equal amounts', () => {
    const legs = cleanEvents.filter(isTx).filter((e) => e.data.enrichments.categories.l2.slug === 'between_own_accounts');
    expect(legs.length).toBeGreaterThan(0);
    for (const [customer, events] of byCustomer(legs)) {
      const debits = events.filter((e) => e.data.credit_debit_indicator === 'debit');
      const credits = events.filter((e) => e.data.credit_debit_indicator === 'credit');
      expect(debits.length, customer).toBe(credits.length);
      for (const d of debits) {
        const match = credits.find((c) => c.data.date_time === d.data.date_time && c.data.amount.value === d.data.amount.value);
        expect(match, `${customer} ${d.data.transaction_id}`).toBeDefined();
        expect(match?.data.account_id).not.toBe(d.data.account_id);
      }
    }
  });

  it('gives some customers secrets and some applications, never both', () => {
    const customers = byCustomer(cleanEvents);
    let secrets = 0;
    let applications = 0;
    for (const events of customers.values()) {
      const withSecret = events.filter((e) => e.customer_secret !== undefined).length;
      expect([0, events.length]).toContain(withSecret);
      const hasApplication = events.some((e) => e.type === 'application.upserted');
      if (withSecret) secrets++;
      if (hasApplication) applications++;
      expect(withSecret > 0 && hasApplication).toBe(false);
    }
    expect(secrets).toBeGreaterThan(0);
    expect(applications).toBeGreaterThan(0);
    expect(new Set(cleanEvents.map((e) => e.client_id))).toEqual(new Set(['client-1', 'client-2']));
  });
});

describe('faults', () => {
  const results = faulty.lines.map((line) => ({ line, result: parseEvent(line) }));
  const valid = results.flatMap((r) => (r.result.ok ? [r.result.event] : []));

  it('makes exactly stats.faults.invalid lines fail parseEvent, and counts lines and events', () => {
    const invalid = results.filter((r) => !r.result.ok).length;
    expect(invalid).toBeGreaterThan(0);
    expect(invalid).toBe(faulty.stats.faults.invalid);
    expect(faulty.stats.expected.deadLetters).toBe(invalid);
    expect(faulty.stats.lines).toBe(faulty.lines.length);
    expect(faulty.stats.events).toBe(valid.length);
    const { replays, stale, deletions } = faulty.stats.faults;
    expect(Math.min(replays, stale, deletions)).toBeGreaterThan(0);
  });

  it('covers every kind of invalid line', () => {
    const reasons = results.flatMap((r) => (r.result.ok ? [] : [r.result.reason]));
    for (const pattern of [/invalid JSON/, /occurred_at/, /amount/, /category pair/, /type/]) {
      expect(reasons.some((r) => pattern.test(r)), String(pattern)).toBe(true);
    }
  });

  it('only adds lines: without the faults the output is the clean output', () => {
    const cleanSame = run({ ...BASE, customers: 150 }).lines;
    let i = 0;
    for (const line of faulty.lines) if (line === cleanSame[i]) i++;
    expect(i).toBe(cleanSame.length);
  });

  it('replays exact lines, sends stale versions late, and deletes after the upsert', () => {
    const seen = new Map<string, number>();
    const firstUpsert = new Map<string, Tx>();
    let replays = 0;
    let stale = 0;
    let deletions = 0;
    valid.forEach((e, i) => {
      if (seen.has(e.event_id)) replays++;
      seen.set(e.event_id, i);
      if (isTx(e)) {
        const original = firstUpsert.get(e.data.transaction_id);
        if (!original) firstUpsert.set(e.data.transaction_id, e);
        else if (original.event_id !== e.event_id) {
          stale++;
          expect(e.occurred_at < original.occurred_at).toBe(true);
          expect(e.data.amount.value).not.toBe(original.data.amount.value);
        }
      }
      if (e.type === 'transaction.deleted') {
        deletions++;
        const upsert = firstUpsert.get(e.data.transaction_id);
        expect(upsert).toBeDefined();
        expect(e.occurred_at > (upsert?.occurred_at ?? '')).toBe(true);
      }
    });
    expect({ replays, stale, deletions }).toEqual({ replays: faulty.stats.faults.replays, stale: faulty.stats.faults.stale, deletions: faulty.stats.faults.deletions });
    expect(faulty.stats.expected.liveTransactions).toBe(firstUpsert.size - deletions);
  });
});

describe('renderProgress', () => {
  it('draws a bar with percentage and counts', () => {
    expect(renderProgress(1000, 2000, 10)).toBe('[#####.....] 50% 1000/2000 customers');
    expect(renderProgress(0, 0, 4)).toBe('[####] 100% 0/0 customers');
  });
});
