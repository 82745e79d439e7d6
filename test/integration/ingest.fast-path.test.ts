import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBValue } from '@duckdb/node-api';
import { parseEvent } from '../../src/domain/events.js';
import { generateEvents } from '../../src/generate/index.js';
import type { FastCustomer } from '../../src/ingest/fast-customers.js';
import { fastCustomers, stageFast } from '../../src/ingest/fast-path.js';
import { eachFastRow, fastRows, type FoundRows } from '../../src/ingest/fast-rows.js';
import { FastValidator, fastValidator } from '../../src/ingest/fast-validator.js';
import { fastWorkerCode } from '../../src/ingest/fast-worker-code.js';
import { prepareItems } from '../../src/ingest/prepare.js';
import { transactionCells, type TransactionEvent } from '../../src/ingest/transaction-cells.js';
import type { BatchResult, RawItem } from '../../src/ingest/types.js';
import { ensureStage } from '../../src/ingest/write-batch.js';
import { writeFastBatch } from '../../src/ingest/write-fast-batch.js';
import { HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { overflowCust1April, salaryLine } from '../helpers/overflow.js';
import { rows, tempStore } from '../helpers/store.js';
import { loggedLines } from '../helpers/log-lines.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { mutate, type Json } from '../helpers/json-mutate.js';
import { until } from '../helpers/time.js';


const generated = [...generateEvents({ customers: 12, months: 4, seed: 23, faults: true, endMonth: '2024-04' })].map((l) => l.trimEnd());

const FIELDS: string[][] = [
  ['event_id'], ['type'], ['occurred_at'], ['client_id'], ['customer_id'], ['customer_secret'], ['data'], ['extra'],
  ['data', 'transaction_id'], ['data', 'account_id'], ['data', 'provider'], ['data', 'description'], ['data', 'credit_debit_indicator'],
  ['data', 'amount'], ['data', 'amount', 'value'], ['data', 'amount', 'currency'], ['data', 'amount', 'extra'], ['data', 'date_time'],
  ['data', 'status'], ['data', 'enrichments'], ['data', 'enrichments', 'categories'], ['data', 'enrichments', 'categories', 'l1'],
  ['data', 'enrichments', 'categories', 'l1', 'slug'], ['data', 'enrichments', 'categories', 'l1', 'confidence'],
  ['data', 'enrichments', 'categories', 'l2', 'slug'], ['data', 'enrichments', 'categories', 'l2', 'confidence'],
  ['data', 'enrichments', 'regularity'], ['data', 'enrichments', 'regularity', 'frequency'],
  ['data', 'enrichments', 'regularity', 'predicted_date_times'], ['data', 'enrichments', 'regularity', 'group_label'],
  ['data', 'enrichments', 'merchant'], ['data', 'tags'], ['data', 'posted_date_time'], ['data', 'value_date_time'],
  ['data', 'merchant_category_code'], ['data', 'counterparty'], ['data', 'counterparty', 'name'], ['data', 'counterparty', 'identifier'],
  ['data', 'running_balance'], ['data', 'running_balance', 'value'], ['data', 'running_balance', 'currency'], ['data', 'unknown_key'],
];

const VALUES: unknown[] = [
  undefined, null, 0, 0.5, 1e21, true, false, '', 'x', 'x'.repeat(100), 'x'.repeat(101), 'x'.repeat(200), 'x'.repeat(201),
  'x'.repeat(500), 'x'.repeat(501), 'x'.repeat(1000), 'x'.repeat(1001), 'é'.repeat(150), '😀'.repeat(60), 'a\ud83d\ude00b', '\ufffd', 'a/b',
  'with "quotes"', 'back\\slash', 'tab\there', 'line\u2028sep', [], ['a'], [1], [null], [['a']], ['a', 'b'], Array.from({ length: 50 }, () => 't'),
  Array.from({ length: 51 }, () => 't'), {}, { a: 'b' }, { value: '1.00', currency: 'GBP' }, { name: 'n' }, { identifier: 'i' },
  { slug: 'income' }, { slug: 'salary', confidence: '0.9' }, { l1: { slug: 'income' }, l2: { slug: 'salary' } },
  { frequency: 'monthly' }, { frequency: 'monthly', predicted_date_times: ['2024-01-01T10:00:00Z'], group_label: 'g' }, { display_name: 'Shop' },
  '0', '0.00', '0.01', '1', '1.5', '-1.00', '+1.00', '01.00', '1e3', '12.345', '999999999.99', '1000000000.00', ' 1.00', '1.00 ',
  'GBP', 'EUR', 'XYZ', 'gbp', 'GB', 'credit', 'debit', 'Credit', 'booked', 'pending', 'declined', 'monthly', 'income', 'salary',
  'transaction.upserted', 'transaction.deleted', 'account.upserted',
  '2024-02-30T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T23:59:60Z', '2024-01-01T00:00:00+25:00', '2024-01-01T10:00:00+01:00',
  '2024-01-01T10:00:00.123Z', '2024-01-01T10:00:00.1Z', '2024-01-01T10:00:00.123456789Z', '2024-01-01T10:00Z', '2024-01-01',
  '2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2000-02-29T23:59:59.999Z', '2024-04-31T00:00:00Z',
  '2024-00-10T00:00:00Z', '2024-13-10T00:00:00Z', '2024-01-00T00:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T0a:00:00Z',
  '2024-01-01 10:00:00Z', '2024-01-01t10:00:00z', '+2024-01-01T10:00:00Z', '2024-1-01T10:00:00Z', '２０２４-01-01T10:00:00Z',
  '1969-12-31T23:59:59Z', '1970-01-01T00:00:00Z', '2100-12-31T23:59:59Z', '2101-01-01T00:00:00Z', '2999-01-01T00:00:00Z',
  ['2024-01-01T10:00:00Z'], ['2024-01-01T10:00:00.500Z', '2024-02-01T10:00:00Z'], ['2024-01-01T10:00:00+01:00'], ['not a date'],
];

/** Changes to the text of a line that keep or break its JSON in the ways one parser may read differently from another. */
const TEXT_MUTATIONS: ((line: string) => string)[] = [
  (l) => ` ${l}`, (l) => `${l} `, (l) => `\ufeff${l}`, (l) => l.replace('{"event_id"', '{ "event_id"'), (l) => l.replace('":"', '" : "'),
  (l) => l.replace(/}}$/, '},}'), (l) => l.replace(/}}$/, '}}}'), (l) => `${l}x`, (l) => `${l}{}`, (l) => `${l}//c`, (l) => l.replace('"tags":[]', '"tags":[,]'),
  (l) => l.replace('"tags":[', '"tags":["a",'), (l) => l.replace(/"event_id":"([^"]*)"/, '"event_id":"$1","event_id":"other"'),
  (l) => l.replace('"type"', '"Type"'), (l) => l.replace(/"description":"([^"]*)"/, '"description":"$1\\u0041"'),
  (l) => l.replace(/"description":"([^"]*)"/, '"description":"\\/"'), (l) => l.replace('"confidence":"0.95"', '"confidence":0.95'),
  (l) => l.replace('"confidence":"0.95"', '"confidence":NaN'), (l) => l.replace('"confidence":"0.95"', '"confidence":1e400'),
  (l) => l.replace(/"description":"[^"]*"/, '"description":"\ud800"'), (l) => l.replace('"data":{', '"data":{"merchant":null,'),
  (l) => l.replace('"client_id"', '"client_id":"a","client_id"'), (l) => l.slice(0, -1), (l) => l.replace(/:"/g, ': "'),
];

function corpus(): string[] {
  const out = [...generated];
  const samples = generated.filter((l) => l.includes('"type":"transaction.')).flatMap((l) => {
    try {
      return [JSON.parse(l) as Json];
    } catch {
      return [];
    }
  });
  const full = samples.find((s) => JSON.stringify(s).includes('regularity')) as Json;
  const secret = samples.find((s) => s.customer_secret !== undefined) as Json;
  const deleted = samples.find((s) => s.type === 'transaction.deleted') as Json;
  const rich = mutate(mutate(full, ['data', 'counterparty'], { name: 'n', identifier: 'i' }), ['data', 'running_balance'], { value: '-5.00', currency: 'GBP' });
  for (const base of [full, secret, deleted, rich]) {
    for (const path of FIELDS) for (const value of VALUES) out.push(JSON.stringify(mutate(base, path, value)));
  }
  for (const line of samples.slice(0, 40).map((s) => JSON.stringify(s))) for (const m of TEXT_MUTATIONS) out.push(m(line));
  for (const line of HOSTILE_LINES) out.push(line.bytes.toString('utf8').trimEnd());
  return out;
}

const items = (lines: readonly string[], sourceRef: string): RawItem[] => lines.map((raw, i) => ({ raw, ref: { source: 'file', sourceRef, lineNumber: i + 1 } }));

describe('the fast path (plain transaction events checked by hand on a worker thread, staged in bulk)', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  const lines = corpus();
  beforeAll(async () => {
    ctx = await tempStore();
  });
  afterAll(async () => ctx.cleanup());

  it('stages only events the schema takes, each with the row the schema path stages, and most generated transaction events', async () => {
    await ctx.store.writeUntransacted(ensureStage);
    const found = await fastValidator.rows(items(lines, 'corpus'));
    const staged = await ctx.store.write(async (conn) => {
      await stageFast(conn, found);
      const reader = await conn.runAndReadAll('SELECT * FROM stage_transactions ORDER BY seq');
      const names = reader.columnNames();
      const out = reader.getRowsJson().map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])));
      await conn.run('DELETE FROM stage_transactions');
      return out;
    });
    expect(staged.length).toBeGreaterThan(0);
    for (const row of staged) {
      const raw = lines[Number(row.seq)] as string;
      const parsed = parseEvent(raw);
      expect(parsed.ok, raw).toBe(true);
      if (!parsed.ok) continue;
      const event = parsed.event as TransactionEvent;
      const cells = transactionCells(Number(row.seq), event).map((c) => (c === undefined ? null : c));
      const sql = Object.values(row).slice(0, cells.length);
      expect(sql, raw).toEqual(cells);
      expect(row.customer_secret, raw).toBe(event.customer_secret ?? null);
    }
    const transactions = generated.filter((l) => l.includes('"type":"transaction.') && parseEvent(l).ok).length;
    const stagedGenerated = staged.filter((r) => Number(r.seq) < generated.length).length;
    expect(stagedGenerated).toBeGreaterThan(transactions * 0.95);
    // Mutations the fast path takes too, so that the comparison above covers more than the generator's own shapes.
    expect(staged.length - stagedGenerated).toBeGreaterThan(200);
    // Every line is staged or left to the schema, once.
    expect([...staged.map((r) => Number(r.seq)), ...found.slow].sort((a, b) => a - b)).toEqual(lines.map((_, i) => i));
  });

  it("tallies each customer of the rows as it finds them, as SQL finds them from the staged rows, from texts and from bytes", async () => {
    // Customers whose rows carry several secrets, none, or one only on a later row; spread over many pieces.
    // Lines that are the same as UTF-8 bytes (a lone surrogate is not), so that texts and bytes hold the same events.
    const withSecrets = lines
      .map((l, i) => (i % 7 === 3 ? l.replace('"customer_id":', `"customer_secret":"s-${i % 3}","customer_id":`) : l))
      .filter((l) => Buffer.from(l).toString('utf8') === l);
    const byKey = (cs: readonly FastCustomer[] | undefined) =>
      [...(cs ?? [])].map((c) => ({ ...c, secrets: [...c.secrets].sort() })).sort((a, b) => `${a.client_id}/${a.customer_id}`.localeCompare(`${b.client_id}/${b.customer_id}`));
    await ctx.store.writeUntransacted(ensureStage);
    const fromText = await fastValidator.rows(items(withSecrets, 'tally'));
    const fromBytes = await fastValidator.bytes(withSecrets.map((l) => Buffer.from(l)));
    const sql = await ctx.store.write(async (conn) => {
      await stageFast(conn, fromText);
      const customers = await fastCustomers(conn);
      await conn.run('DELETE FROM stage_transactions');
      return customers;
    });
    expect(sql.length).toBeGreaterThan(10);
    expect(sql.some((c) => c.secrets.length > 1)).toBe(true);
    expect(byKey(fromText.customers)).toEqual(byKey(sql));
    expect(byKey(fromBytes.customers)).toEqual(byKey(sql));
  });

  it('finds the rows on its worker thread, the same rows as on the calling thread, and a refused item is left to the schema', async () => {
    const validator = new FastValidator();
    const batch = items(lines, 'corpus');
    batch[3] = { ...(batch[3] as RawItem), refused: 'the line is not valid UTF-8' };
    const onWorker = await validator.rows(batch);
    expect(validator.ran).toMatchObject({ worker: Math.ceil(batch.length / 2048), here: 0 });
    const here = fastRows(batch.map((i) => (i.refused === undefined ? i.raw : null)));
    expect(onWorker).toEqual(here);
    expect(onWorker.slow).toContain(3);
    expect(onWorker.rows.length).toBeGreaterThan(generated.length / 2);
  });

  it('finds the rows on the calling thread when the worker thread is gone, and goes on doing so', async () => {
    const validator = new FastValidator();
    const batch = items(generated, 'generated');
    const pieces = Math.ceil(batch.length / 2048);
    await validator.rows(batch);
    await validator.stop();
    const after = await validator.rows(batch);
    expect(validator.ran).toMatchObject({ worker: pieces, here: pieces });
    expect(after).toEqual(fastRows(generated));
  });

  it('finds the rows of a batch handed over item by item, starting on its first pieces before the batch is whole', async () => {
    const validator = new FastValidator();
    const batch = items(Array.from({ length: 3 }, () => lines).flat(), 'corpus x 3');
    expect(batch.length).toBeGreaterThan(3 * 2048);
    const stream = validator.stream();
    batch.slice(0, 2 * 2048).forEach((item) => stream.add(item));
    // Two whole pieces are queued: the thread works them out while the rest of the batch is still to come.
    await until(() => validator.ran.worker === 2, () => `pieces worked out so far: ${JSON.stringify(validator.ran)}`, 20_000, 10);
    batch.slice(2 * 2048).forEach((item) => stream.add(item));
    expect(await stream.end()).toEqual(fastRows(batch.map((i) => i.raw)));
    expect(validator.ran).toMatchObject({ worker: Math.ceil(batch.length / 2048), here: 0 });
    await validator.stop();
  });

  it('sends small pieces (a Kafka chunk of a few hundred messages) to its thread several to a message, with the same rows', async () => {
    const validator = new FastValidator();
    const chunks = Array.from({ length: 12 }, (_, i) => items(lines.slice(i * 150, (i + 1) * 150), `chunk ${i}`));
    const found = await Promise.all(chunks.map((chunk) => validator.rows(chunk)));
    expect(found).toEqual(chunks.map((chunk) => fastRows(chunk.map((i) => i.raw))));
    expect(validator.ran.worker).toBe(12);
    // 12 pieces of 150: at most 2,048 items a message, so far fewer messages than pieces.
    expect(validator.ran.messages).toBeLessThanOrEqual(4);
    await validator.stop();
  });

  it("finds the same rows from values' UTF-8 bytes as from their texts, on the thread or here, leaving a value that is not UTF-8 to the schema", async () => {
    const texts = [...lines.slice(0, 2500), 'not json', ...generated.slice(0, 1700)];
    // As a Kafka client hands them over: views into one buffer, with other bytes between them.
    const whole = Buffer.from(texts.map((t) => `~~${t}`).join(''));
    const values: (Uint8Array | null)[] = [];
    let at = 0;
    for (const t of texts) {
      const length = Buffer.byteLength(t);
      values.push(whole.subarray(at + 2, at + 2 + length));
      at += 2 + length;
    }
    // A value that is not UTF-8 and a missing one break the run of one buffer: they are packed one by one.
    const mixed = [...values.slice(0, 300), Buffer.from([0x7b, 0xff, 0x7d]), null, ...values.slice(300, 600)];
    const mixedTexts = [...texts.slice(0, 300), null, '', ...texts.slice(300, 600)];
    // Rows scanned from bytes come as one text a piece: the same rows, one by one.
    const each = (found: FoundRows) => ({ rows: [...eachFastRow(found.rows)].sort(), slow: found.slow });
    const validator = new FastValidator();
    expect(each(await validator.bytes(values))).toEqual(each(fastRows(texts)));
    expect(each(await validator.bytes(mixed))).toEqual(each(fastRows(mixedTexts)));
    expect((await validator.bytes(mixed)).slow).toEqual(expect.arrayContaining([300, 301]));
    expect(validator.ran.here).toBe(0);
    await validator.stop();
    // The calling thread, once the worker is gone, reads the same bytes the same way.
    expect(each(await validator.bytes(values))).toEqual(each(fastRows(texts)));
    expect(each(await validator.bytes(mixed))).toEqual(each(fastRows(mixedTexts)));
    expect(validator.ran.here).toBeGreaterThan(0);
  });

  it('lets a caller waiting for rows work out queued pieces itself, oldest first, and the rows are the same', async () => {
    const validator = new FastValidator();
    const batch = items(Array.from({ length: 4 }, () => lines).flat(), 'corpus x 4');
    const pieces = Math.ceil(batch.length / 2048);
    expect(pieces).toBeGreaterThanOrEqual(4);
    const later = items(Array.from({ length: 4 }, () => generated).flat(), 'generated x 4');
    // The thread is still starting when the caller begins to help: the first pieces are worked out here.
    const found = validator.rows(batch);
    const next = validator.rows(later);
    const helped = await validator.helpUntil(found);
    expect(helped).toEqual(fastRows(batch.map((i) => i.raw)));
    expect(validator.ran.here).toBeGreaterThan(0);
    expect(validator.ran.here + validator.ran.worker).toBeGreaterThanOrEqual(pieces);
    // It stops helping once its own rows are found: what is left of the next batch is the thread's.
    expect(validator.ran.here + validator.ran.worker).toBeLessThan(pieces + Math.ceil(later.length / 2048));
    expect(await next).toEqual(fastRows(later.map((i) => i.raw)));
    expect(validator.ran.worker).toBeGreaterThan(0);
    await validator.stop();
  });

  it('stops helping once the thread has compiled its check and said it is ready: the thread then works out every piece', async () => {
    const validator = new FastValidator();
    validator.warm();
    await until(() => validator.isReady, () => 'the thread to say it is ready', 20_000, 10);
    const batch = items(Array.from({ length: 4 }, () => lines).flat(), 'corpus x 4');
    const helped = await validator.helpUntil(validator.rows(batch));
    expect(helped).toEqual(fastRows(batch.map((i) => i.raw)));
    expect(validator.ran).toMatchObject({ worker: Math.ceil(batch.length / 2048), here: 0 });
    await validator.stop();
    expect(validator.isReady).toBe(false);
  });

  it('leaves to the schema a row whose text holds a separator, which only an escape can put there', () => {
    const line = generated.find((l) => l.includes('"type":"transaction.upserted"') && l.includes('"description":"')) as string;
    const escaped = line.replace(/"description":"[^"]*"/, '"description":"a\\u001fb"');
    expect(parseEvent(escaped).ok).toBe(true);
    expect(fastRows([line, escaped])).toMatchObject({ slow: [1] });
  });

  it("bundles for its worker thread only the check's own sources: no schema library, no decimal arithmetic", async () => {
    const code = await fastWorkerCode();
    // esbuild names each module it bundles in a comment above its code.
    const modules = code.match(/^\/\/ \S+[.][cm]?[jt]s$/gm) ?? [];
    expect(modules).toContain('// src/ingest/fast-rows.ts');
    expect(modules).toContain('// src/ingest/fast-event.ts');
    expect(modules.filter((m) => m.includes('node_modules/'))).toEqual([]);
    // The script the thread compiles before its first batch: it was 835,000 characters with the schema library in it.
    expect(code.length).toBeLessThan(50_000);
  });
});

/** Everything a batch leaves in the store, in a form two stores can be compared by. */
async function storeState(store: Awaited<ReturnType<typeof tempStore>>['store']): Promise<Record<string, unknown[]>> {
  const q = (sql: string) => rows(store, sql);
  return {
    transactions: await q('SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY ALL'),
    totals: await q('SELECT * FROM monthly_category_totals ORDER BY ALL'),
    customers: await q('SELECT client_id, customer_id, hosted, secret_hash IS NULL AS no_secret FROM customers ORDER BY ALL'),
    tombstones: await q('SELECT * FROM tombstones ORDER BY ALL'),
    deletions: await q('SELECT client_id, customer_id, transaction_id FROM transaction_deletions ORDER BY ALL'),
    dead: await q('SELECT source, source_ref, line_number, raw, reason FROM dead_letters ORDER BY ALL'),
    accounts: await q('SELECT * EXCLUDE (updated_at) FROM accounts ORDER BY ALL'),
  };
}

const summary = (r: BatchResult) => ({ ...r, touchedCustomers: [...r.touchedCustomers].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) });

describe('a batch written by the fast path', () => {
  it('ends exactly as the same batch validated by the schema: rows, totals, customers, secrets, deletions, dead letters and counts', async () => {
    const fast = await tempStore();
    const slow = await tempStore();
    try {
      const lines = corpus();
      const customer = JSON.parse(generated.find((l) => l.includes('"customer_secret"')) as string) as Json;
      const who = { client_id: customer.client_id, customer_id: customer.customer_id };
      const event = (over: Json) => JSON.stringify({ ...who, event_id: `ev-${Math.random()}`, ...over });
      const tx = generated.filter((l) => l.includes(`"customer_id":"${String(who.customer_id)}"`) && l.includes('"type":"transaction.upserted"'));
      const withSecret = (l: string, secret: string) => JSON.stringify({ ...(JSON.parse(l) as Json), customer_secret: secret });
      const batches: string[][] = [
        lines,
        // The customer's secret, right and wrong (unless its first event left it hosted).
        tx.slice(0, 20).map((l, i) => withSecret(l, i % 2 ? 'wrong-secret' : String(customer.customer_secret))),
        [event({ type: 'customer.deleted', occurred_at: '2024-03-01T00:00:00Z', data: {} })],
        // After the deletion: older events change nothing; a newer one creates the customer afresh with its secret, later ones must match it.
        [
          ...tx.slice(0, 10),
          withSecret(tx[10] as string, 'new-secret').replace(/"occurred_at":"[^"]*"/, '"occurred_at":"2024-03-02T00:00:00Z"'),
          ...tx.slice(11, 20).map((l, i) => withSecret(l, i % 2 ? 'new-secret' : 'other').replace(/"occurred_at":"[^"]*"/, '"occurred_at":"2024-03-03T00:00:00Z"')),
        ],
        // The secret now stored: a wrong one is a dead letter, the right one or none goes in.
        tx.slice(20, 32).map((l, i) => (i % 3 === 2 ? l : withSecret(l, i % 3 ? 'new-secret' : 'bad'))),
        // A deletion amid rows the fast path finds: what came before it goes with the customer, what comes after stays.
        [
          ...tx.slice(32, 40).map((l) => l.replace(/"occurred_at":"[^"]*"/, '"occurred_at":"2024-03-04T00:00:00Z"')),
          event({ type: 'customer.deleted', occurred_at: '2024-03-05T00:00:00Z', data: {} }),
          ...tx.slice(40, 48).map((l) => l.replace(/"occurred_at":"[^"]*"/, '"occurred_at":"2024-03-06T00:00:00Z"')),
        ],
        // Deleted again; then older and newer rows, none with a secret: nothing to find but the deletion.
        [event({ type: 'customer.deleted', occurred_at: '2024-03-07T00:00:00Z', data: {} })],
        tx.slice(48, 60).map((l, i) => l.replace(/"occurred_at":"[^"]*"/, `"occurred_at":"2024-03-0${i % 2 ? 8 : 6}T00:00:00Z"`)),
        // At the same instant as a deletion, the event id decides, in the order SQL gives text: a character above
        // U+FFFF after one below it, where JavaScript's own comparison puts it before.
        [JSON.stringify({ ...who, event_id: 'del-\uffff', type: 'customer.deleted', occurred_at: '2024-03-09T00:00:00Z', data: {} })],
        tx.slice(60, 66).map((l, i) =>
          JSON.stringify({ ...(JSON.parse(l) as Json), event_id: `del-${i % 2 ? '\u{1F600}' : '\ufffe'}-${i}`, occurred_at: '2024-03-09T00:00:00Z' }),
        ),
      ];
      for (const [i, batch] of batches.entries()) {
        // Straight to the fast path, whatever the batch's size (the pipeline sends small batches to the schema).
        await fast.store.writeUntransacted(ensureStage);
        const found = await fastValidator.rows(items(batch, `batch-${i}`));
        const a = await fast.store.write((conn) => writeFastBatch(conn, items(batch, `batch-${i}`), found));
        const b = await slow.pipeline.ingestPrepared(prepareItems(items(batch, `batch-${i}`)));
        expect(summary(a), `batch ${i}`).toEqual(summary(b));
        if (i === 4) {
          // Before the customer's next deletion takes its dead letters with it.
          const [dead] = await rows<{ n: DuckDBValue }>(fast.store, "SELECT count(*)::INTEGER AS n FROM dead_letters WHERE reason LIKE 'customer_secret: does not match%'");
          expect(Number(dead?.n)).toBeGreaterThan(8);
        }
      }
      expect(await storeState(fast.store)).toEqual(await storeState(slow.store));
    } finally {
      await fast.cleanup();
      await slow.cleanup();
    }
  });
});

describe('a large batch the store rejects an event of', () => {
  it('is written by the schema path instead, which dead-letters that event alone with the store error, and the rest goes in', async () => {
    const ctx = await tempStore();
    try {
      await overflowCust1April(ctx);
      const lines = Array.from({ length: 2500 }, (_, i) => salaryLine(i + 1, 'cust-2', '2024-03'));
      lines[1200] = salaryLine(1201, 'cust-1', '2024-04');
      const logged = loggedLines('warn');
      const result = await buildPipeline(ctx.store, logged.logger).ingest(items(lines, 'big'));
      expect(result).toMatchObject({ read: 2500, inserted: 2499 });
      // Said once, with the store's error: a fault of the fast path itself would show here too.
      const fellBack = logged.lines.filter((l) => l.msg === 'the fast path could not write the batch; it is written again with every event validated');
      expect(fellBack).toHaveLength(1);
      expect(JSON.stringify(fellBack[0]?.err)).toContain('out of range');
      expect(result.deadLetters.map((d) => [d.ref.lineNumber, d.reason.slice(0, 26)])).toEqual([[1201, 'store rejected the event: ']]);
      const [march] = await rows<{ n: number }>(ctx.store, "SELECT transaction_count AS n FROM monthly_category_totals WHERE customer_id = 'cust-2'");
      expect(march?.n).toBe(2499);
    } finally {
      await ctx.cleanup();
    }
  });
});
