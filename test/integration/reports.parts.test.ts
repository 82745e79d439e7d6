import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { listSqlFiles, sqlFile } from '../../src/db/sql-files.js';
import { Store } from '../../src/db/store.js';
import { saveReports } from '../../src/reports/report-archive.js';
import type { AffordabilityReport } from '../../src/reports/report-model.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

const NOW = new Date('2024-07-15T02:00:00Z');
const CUSTOMERS = 4;

describe('the nightly reports are stored in parts under 4 KB, and read whole', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: CUSTOMERS, months: 12, seed: 3, faults: false, endMonth: '2024-06' });
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path });
    const run = await runJob(createAffordabilityReportsJob({ now: () => NOW }), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status).toBe('succeeded');
  });
  afterAll(async () => ctx.cleanup());

  it('keeps every part under 4,096 bytes, and affordability_reports gives each report whole', async () => {
    const [parts] = await rows<{ reports: number; longest: number; over: number }>(ctx.store, `SELECT
      count(*) FILTER (WHERE part = 0)::INTEGER AS reports, max(strlen(text))::INTEGER AS longest, count(*) FILTER (WHERE part > 0)::INTEGER AS over
      FROM affordability_report_parts`);
    expect(parts?.reports).toBe(CUSTOMERS * 3);
    expect(parts?.over).toBeGreaterThan(CUSTOMERS * 3); // reports of 35 KB and more: many parts each
    expect(parts?.longest).toBeLessThan(4096);
    const whole = await rows<{ n: number; same: number }>(ctx.store, `SELECT count(*)::INTEGER AS n,
      count(*) FILTER (WHERE r.report::VARCHAR = (SELECT string_agg(p.text, '' ORDER BY p.part) FROM affordability_report_parts p
        WHERE p.client_id = r.client_id AND p.customer_id = r.customer_id AND p.month_from = r.month_from AND p.currency = r.currency))::INTEGER AS same
      FROM affordability_reports r`);
    expect(whole).toEqual([{ n: CUSTOMERS * 3, same: CUSTOMERS * 3 }]);
  });

  it('checkpoints what the job wrote without dictionary compression, and the store keeps it for what is written afterwards', async () => {
    // Strings that dictionary compression is for (three values, repeated), written while the job runs and
    // checkpointed with what it stored; the same again after the job.
    const repeated = (table: string) => `CREATE TABLE ${table} AS SELECT 'category-' || (i % 3) AS slug FROM range(200000) t(i)`;
    let written = false;
    const job = createAffordabilityReportsJob({
      now: () => NOW,
      beforeCustomer: async () => {
        if (!written) await ctx.store.write((conn) => conn.run(repeated('during_job')));
        written = true;
      },
    });
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path });
    expect((await runJob(job, { store: ctx.store, config, logger: silentLogger }, 'cli')).status).toBe('succeeded');
    await ctx.store.write((conn) => conn.run(repeated('after_job')));
    await ctx.store.checkpoint();
    const compression = async (table: string): Promise<string[]> =>
      (await rows<{ c: string }>(ctx.store, `SELECT DISTINCT compression AS c FROM pragma_storage_info('${table}') WHERE segment_type = 'VARCHAR' ORDER BY 1`)).map((r) => r.c);
    // The store is a new file, in the storage format whose dictionary compression is DICT_FSST (see create-store.sql).
    expect(await compression('during_job')).not.toContain('DICT_FSST');
    expect(await compression('during_job')).not.toContain('Dictionary');
    expect(await compression('after_job')).toContain('DICT_FSST');
    expect(await rows(ctx.store, "SELECT current_setting('disabled_compression_methods') AS d")).toEqual([{ d: '' }]);
  });

  it('replaces every part of a report stored again, when the new text is shorter, and keeps the text exactly', async () => {
    const [stored] = await rows<{ report: string }>(ctx.store, "SELECT report::VARCHAR AS report FROM affordability_reports WHERE range_months = 12 ORDER BY customer_id LIMIT 1");
    const report = JSON.parse(stored!.report) as AffordabilityReport;
    // Shorter, and with characters of two, three and four bytes where the parts are cut.
    const shorter = { ...report, metadata: { ...report.metadata, note: '£€😀'.repeat(700) } } as AffordabilityReport;
    shorter.data.assessment.income.total.monthly_totals = [];
    const text = JSON.stringify(shorter);
    expect(text.length).toBeLessThan(stored!.report.length);
    await saveReports(ctx.store, [{ rangeMonths: 12, report: shorter, json: text }]);
    const where = `customer_id = '${report.metadata.customer_id}' AND range_months = 12`;
    const again = await rows<{ report: string }>(ctx.store, `SELECT report::VARCHAR AS report FROM affordability_reports WHERE ${where}`);
    expect(again).toEqual([{ report: text }]);
    const [parts] = await rows<{ n: number; longest: number }>(ctx.store,
      `SELECT count(*)::INTEGER AS n, max(strlen(text))::INTEGER AS longest FROM affordability_report_parts WHERE ${where}`);
    expect(parts?.longest).toBeLessThan(4096);
    expect(parts?.n).toBeGreaterThanOrEqual(Math.ceil(text.length / 1000)); // parts of 1,000 code units, fewer when one would split a character
  });
});

describe('a store with whole reports, from before they were kept in parts', () => {
  const text = JSON.stringify({ metadata: { customer_id: 'c-1' }, data: { note: 'Café £5 😀 '.repeat(900) } });
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A file with 450 whole reports (more than two batches of the move), one of them stored twice, and the
   * schema before parts; with `cutShort`, also the parts migration itself,
   * as if the process had died before moving any report.
   */
  async function oldFile(cutShort: boolean): Promise<string> {
    const dir = mkdtempSync(path.join(tmpdir(), 'afford-report-parts-'));
    dirs.push(dir);
    const dbPath = path.join(dir, 'afford.duckdb');
    const instance = await DuckDBInstance.create(dbPath);
    const conn = await instance.connect();
    await conn.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)');
    const files = listSqlFiles('migrations').filter((f) => Number(f.slice(0, 3)) < (cutShort ? 14 : 13) && !f.endsWith('.batch.sql'));
    const apply = async (file: string): Promise<void> => {
      await conn.run(sqlFile(`migrations/${file.slice(0, -4)}`));
      await conn.run('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [Number(file.slice(0, 3)), file]);
    };
    for (const file of files.filter((f) => Number(f.slice(0, 3)) < 13)) await apply(file);
    await conn.run(`INSERT INTO affordability_reports VALUES ('c-1', 'client-a', 12, DATE '2023-07-01', DATE '2024-06-01', 'GBP',
      TIMESTAMP '2024-07-15 02:00:00', 'v1', $1), ('c-2', 'client-a', 3, DATE '2024-04-01', DATE '2024-06-01', 'GBP', TIMESTAMP '2024-07-15 02:00:00', 'v1', '{}')`, [text]);
    await conn.run(`INSERT INTO affordability_reports SELECT 'c-' || (i + 3), 'client-a', 6, DATE '2024-01-01', DATE '2024-06-01', 'GBP',
      TIMESTAMP '2024-07-15 02:00:00', 'v1', json_object('n', i, 'pad', repeat('x', 2500)) FROM range(448) t(i)`);
    // The same report twice, in two different batches: it is moved once, or its parts would interleave.
    await conn.run(`INSERT INTO affordability_reports SELECT * FROM affordability_reports WHERE customer_id = 'c-2'`);
    for (const file of files.filter((f) => Number(f.slice(0, 3)) === 13)) await apply(file);
    conn.closeSync();
    instance.closeSync();
    return dbPath;
  }

  for (const cutShort of [false, true]) {
    it(`moves them into parts under 4,096 bytes on opening, each read back as it was${cutShort ? ', also when a start before moved none' : ''}`, async () => {
      const store = await Store.open(await oldFile(cutShort), silentLogger);
      try {
        expect(await rows(store, "SELECT customer_id, range_months, generator_version, report::VARCHAR AS report FROM affordability_reports WHERE customer_id IN ('c-1', 'c-2') ORDER BY customer_id")).toEqual([
          { customer_id: 'c-1', range_months: 12, generator_version: 'v1', report: text },
          { customer_id: 'c-2', range_months: 3, generator_version: 'v1', report: '{}' },
        ]);
        expect(await rows(store, `SELECT (SELECT count(*) FROM affordability_reports)::INTEGER AS reports,
          (SELECT count(*) FROM affordability_reports_whole)::INTEGER AS whole,
          (SELECT count(*) FROM affordability_reports WHERE report->>'$.pad' = repeat('x', 2500))::INTEGER AS padded`))
          .toEqual([{ reports: 450, whole: 0, padded: 448 }]);
        const [parts] = await rows<{ n: number; longest: number }>(store, "SELECT count(*)::INTEGER AS n, max(strlen(text))::INTEGER AS longest FROM affordability_report_parts WHERE customer_id = 'c-1'");
        expect(parts?.longest).toBeLessThan(4096);
        expect(parts?.n).toBe(Math.ceil([...text].length / 1000));
      } finally {
        await store.close();
      }
    });
  }
});
