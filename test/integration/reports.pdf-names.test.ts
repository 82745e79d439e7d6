import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { fileNameOf, pdfPathOf } from '../../jobs/report-pdf-paths.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger, tempStore } from '../helpers/store.js';

const NOW = new Date('2024-07-15T02:00:00Z');
const RANGE = { from: '2023-07', to: '2024-06' };
// Valid ids: 50 emoji encode to 600 bytes, past what a file name may be; `..` is the folder above.
const LONG = '😀'.repeat(50);
const customers = [
  { clientId: 'client-1', customerId: LONG },
  { clientId: '..', customerId: 'cust-dots' },
  { clientId: `${'é'.repeat(100)}`, customerId: 'cust-long-client' },
  { clientId: 'client-1', customerId: 'cust-plain' },
];

const salary = (clientId: string, customerId: string, n: number) => ({
  raw: JSON.stringify({
    event_id: `e-${n}`, type: 'transaction.upserted', occurred_at: '2024-03-02T09:00:00Z', client_id: clientId, customer_id: customerId,
    data: {
      transaction_id: `t-${n}`, account_id: 'acc-1', provider: 'Monzo', description: 'SALARY', credit_debit_indicator: 'credit',
      amount: { value: '2000.00', currency: 'GBP' }, date_time: '2024-03-02T09:00:00Z', status: 'booked',
      enrichments: { categories: { l1: { slug: 'income', confidence: '0.99' }, l2: { slug: 'salary', confidence: '0.99' } } }, tags: [],
    },
  }),
  ref: { source: 'file' as const, sourceRef: 'names.ndjson', lineNumber: n },
});

describe('the nightly report PDFs of customers whose ids make awkward file names', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('draws every PDF in its client’s folder, names long ids by a hash, and removes a deleted customer’s and half-written ones', async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    const result = await ctx.pipeline.ingest(customers.map((c, i) => salary(c.clientId, c.customerId, i + 1)));
    expect(result.deadLetters).toEqual([]);
    const pdfs = path.join(ctx.dir, 'pdfs');
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_REPORTS_DIR: pdfs });
    const run = await runJob(createAffordabilityReportsJob({ now: () => NOW }), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status, run.message ?? '').toBe('succeeded');

    const range = path.join(pdfs, `${RANGE.from}_${RANGE.to}`);
    for (const c of customers) expect(existsSync(pdfPathOf(pdfs, RANGE, c)), c.customerId).toBe(true);
    // Every PDF is in a client folder of its range: none above it (`..`), none at the range's own level.
    expect(readdirSync(pdfs)).toEqual([`${RANGE.from}_${RANGE.to}`]);
    expect(readdirSync(range).sort()).toEqual(['%2E%2E', `#${fileNameOf(customers[2]!.clientId).slice(1)}`, 'client-1'].sort());
    expect(fileNameOf(LONG)).toMatch(/^#[0-9a-f]{64}$/);
    expect(readdirSync(path.join(range, 'client-1')).sort()).toEqual([`${fileNameOf(LONG)}.pdf`, 'cust-plain.pdf'].sort());

    const deleted = await ctx.pipeline.ingest([{
      raw: JSON.stringify({ event_id: 'del-long', type: 'customer.deleted', occurred_at: new Date().toISOString(), client_id: 'client-1', customer_id: LONG, data: {} }),
      ref: { source: 'file' as const, sourceRef: 'names.ndjson', lineNumber: 9 },
    }]);
    expect(deleted.deadLetters).toEqual([]);
    // What a process killed in the middle of writing a PDF leaves: gone after the next run.
    const leftover = `${pdfPathOf(pdfs, RANGE, customers[3]!)}.partial`;
    writeFileSync(leftover, '%PDF-1.3 cut short');
    const again = await runJob(createAffordabilityReportsJob({ now: () => NOW }), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(again.status).toBe('succeeded');
    expect(existsSync(pdfPathOf(pdfs, RANGE, customers[0]!))).toBe(false);
    for (const c of customers.slice(1)) expect(existsSync(pdfPathOf(pdfs, RANGE, c)), c.customerId).toBe(true);
    expect(existsSync(leftover)).toBe(false);
  });
});
