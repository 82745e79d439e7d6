import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { generateEvents } from '../../src/generate/index.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { rows, tempStore } from '../helpers/store.js';

describe('a fast batch of a file whose rows are partly turned away', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('writes every other row, however many are turned away, and counts each event once', async () => {
    const said: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _e, done) => { said.push(String(JSON.parse(chunk.toString()).msg)); done(); } }));
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    const pipeline = buildPipeline(ctx.store, logger);
    const lines = [...generateEvents({ customers: 12, months: 12, seed: 7, faults: false, endMonth: '2024-06' })].map((l) => JSON.parse(l) as Record<string, unknown>);
    const first = lines.filter((e) => e['customer_id'] === 'cust-000001');
    const others = lines.filter((e) => e['customer_id'] !== 'cust-000001');
    expect(first.length).toBeGreaterThan(20);
    const write = (name: string, events: object[]): string => {
      const file = path.join(ctx.dir, name);
      writeFileSync(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
      return file;
    };
    // The first customer, with its secret; then a file large enough for the fast path, which the fast path finds in
    // a few large texts: the first customer's transactions again with another secret (dead letters), and every
    // other customer's events.
    const stored = await ingestFile(pipeline, write('first.ndjson', first), { batchRows: 25_000 });
    expect(stored.deadLetters).toBe(0);
    const wrong = first.filter((e) => e['type'] === 'transaction.upserted').slice(0, 20).map((e, i) => ({ ...e, event_id: `again-${i}`, customer_secret: 'another-secret-0123456789' }));
    const result = await ingestFile(pipeline, write('batch.ndjson', [...wrong, ...others]), { batchRows: 25_000 });

    const expected = others.filter((e) => e['type'] === 'transaction.upserted').length;
    expect(expected).toBeGreaterThan(2000);
    expect({ read: result.read, dead: result.deadLetters }).toEqual({ read: wrong.length + others.length, dead: 20 });
    expect(result.read).toBe(result.inserted + result.updated + result.deleted + result.skipped + result.deadLetters);
    expect(await rows(ctx.store, "SELECT count(*)::INTEGER AS n FROM transactions WHERE customer_id <> 'cust-000001'")).toEqual([{ n: expected }]);
    // Written by the fast path itself: not left for the schema path to write again once the batch failed its count.
    expect(said).toEqual([]);
  });
});
