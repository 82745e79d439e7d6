import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import { PdfPool } from '../../src/reports/pdf-pool.js';
import { renderReportPdf, type PdfInput } from '../../src/reports/report-pdf.js';
import { buildReportWithTransactions } from '../../src/reports/report-service.js';
import { fixturePath, tempStore } from '../helpers/store.js';

/** The worker pool renders what the calling thread would: byte for byte, in any order of completion. */
describe('the PDF worker pool', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  let inputs: PdfInput[];
  const pool = new PdfPool(2);
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestFile(ctx.pipeline, fixturePath('report-hand-computed.ndjson'), { batchRows: 1000 });
    await ingestFile(ctx.pipeline, fixturePath('insights-hand-computed.ndjson'), { batchRows: 1000 });
    const made = new Date('2026-11-01T02:00:00Z');
    inputs = (await Promise.all([
      buildReportWithTransactions(ctx.store, { clientId: 'client-r', customerId: 'cust-report-1', range: { from: '2023-05', to: '2024-04' }, currency: 'GBP' }, made),
      buildReportWithTransactions(ctx.store, { clientId: 'client-r', customerId: 'cust-report-1', range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' }, made),
      buildReportWithTransactions(ctx.store, { clientId: 'client-i', customerId: 'cust-ins-1', range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' }, made),
    ])).map((x) => x!);
  });
  afterAll(async () => {
    await pool.close();
    await ctx.cleanup();
  });

  it('gives the same bytes as rendering on this thread', async () => {
    const alone = await Promise.all(inputs.map((input) => renderReportPdf(input)));
    // Several rounds at once, so that both workers take several reports each.
    const pooled = await Promise.all([...inputs, ...inputs, ...inputs].map((input) => pool.render(input)));
    pooled.forEach((pdf, i) => expect(pdf.equals(alone[i % inputs.length]!), `report ${i}`).toBe(true));
    expect(new Set(alone.map((b) => b.toString('base64'))).size).toBe(inputs.length);
  });

  it('fails one report that cannot be rendered and goes on with the next', async () => {
    const broken = { ...inputs[0]!, report: { ...inputs[0]!.report, data: {} } } as unknown as PdfInput;
    await expect(pool.render(broken)).rejects.toThrow(/rendering a PDF failed/);
    expect((await pool.render(inputs[1]!)).equals(await renderReportPdf(inputs[1]!))).toBe(true);
  });
});
