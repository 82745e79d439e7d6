import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { AffordabilityReport } from '../../src/reports/report-model.js';
import { fixturePath, tempStore } from '../helpers/store.js';

const run = promisify(execFile);
const BIN = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'bin', 'afford.mjs');

/** `afford report` as a user runs it, against a DuckDB file that no service holds. */
describe('afford report', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestFile(ctx.pipeline, fixturePath('report-hand-computed.ndjson'), { batchRows: 1000 });
    await ctx.store.close();
    env = { ...process.env, AFFORD_DB: ctx.store.path, AFFORD_LOG_LEVEL: 'silent' };
  });
  afterAll(async () => ctx.cleanup());

  it('prints the JSON report, and writes the PDF with --pdf', async () => {
    const json = await run('node', [BIN, 'report', 'cust-report-1', '--from', '2024-01', '--to', '2024-03'], { env });
    const report = JSON.parse(json.stdout) as AffordabilityReport;
    expect(report.data.assessment.income.total.overall_total.value).toBe('4793.74');
    expect(report.data.assessment.income.net.overall_total.value).toBe('2475.55');

    const out = path.join(ctx.dir, 'out.pdf');
    const pdf = await run('node', [BIN, 'report', 'cust-report-1', '--from', '2024-01', '--to', '2024-03', '--account', 'acc-save', '--pdf', out], { env });
    expect(pdf.stdout).toBe('');
    expect(existsSync(out)).toBe(true);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('takes the API\'s month-range rule: only --from, later than the last complete month, is that month alone', async () => {
    const json = await run('node', [BIN, 'report', 'cust-report-1', '--from', '2090-01'], { env });
    const report = JSON.parse(json.stdout) as AffordabilityReport;
    expect(report.data.assessment.income.total.monthly_totals.map((m) => m.month)).toEqual(['2090-01']);
    await expect(run('node', [BIN, 'report', 'cust-report-1', '--from', '2024-03', '--to', '2024-01'], { env })).rejects.toMatchObject({
      code: 2, stderr: expect.stringContaining('--from must not be after --to'),
    });
  });

  it('fails with a message for an unknown customer', async () => {
    await expect(run('node', [BIN, 'report', 'nobody', '--from', '2024-01', '--to', '2024-03'], { env })).rejects.toMatchObject({
      code: 2, stderr: expect.stringContaining('no customer nobody'),
    });
  });
});
