import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import { reportFigures, type AffordabilityReport } from '../../src/reports/report-model.js';
import { renderReportPdf } from '../../src/reports/report-pdf.js';
import { buildReport } from '../../src/reports/report-service.js';
import { countInkedPixels, decodePng } from '../helpers/png.js';
import { fixturePath, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

/** Runs a poppler tool. A missing tool fails the test: these checks must never be skipped. */
function poppler(tool: string, args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`${tool} is not installed: run test/install-tools.sh (Debian package poppler-utils)`, { cause: err });
    }
    throw err;
  }
}

interface Word {
  page: number;
  xMax: number;
  yMin: number;
  text: string;
}

/** Words with their boxes, from pdftotext -bbox. */
function words(pdf: string): Word[] {
  const html = poppler('pdftotext', ['-bbox', pdf, '-']);
  const out: Word[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page++;
    const m = /<word xMin="[\d.]+" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/.exec(line);
    if (m) out.push({ page, yMin: Number(m[1]), xMax: Number(m[2]), text: m[3] ?? '' });
  }
  return out;
}

/** Every money string of a report: totals, averages, months and buckets. */
function allFigureStrings(report: AffordabilityReport): string[] {
  return reportFigures(report.data).flatMap(({ figure }) => [
    figure.overall_total.value,
    figure.monthly_average.value,
    ...figure.monthly_totals.map((m) => m.amount.value),
    ...(figure.by_bucket_l2 ?? []).map((b) => b.amount.value),
  ]);
}

describe('the affordability report as a PDF', () => {
  let ctx: Ctx;
  let dir: string;
  let report: AffordabilityReport;
  let pdfPath: string;
  beforeAll(async () => {
    ctx = await tempStore();
    dir = mkdtempSync(path.join(tmpdir(), 'afford-pdf-'));
    await ingestFile(ctx.pipeline, fixturePath('report-hand-computed.ndjson'), { batchRows: 1000 });
    // A whole year, so that the layout is tested at its largest usual size.
    report = (await buildReport(ctx.store, { clientId: 'client-r', customerId: 'cust-report-1', range: { from: '2023-05', to: '2024-04' }, currency: 'GBP' }))!;
    pdfPath = path.join(dir, 'report.pdf');
    writeFileSync(pdfPath, await renderReportPdf({ report, transactions: '[]' }));
  });
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is an A4 document of a few pages with its fonts embedded', () => {
    const info = poppler('pdfinfo', [pdfPath]);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(3);
    const fonts = poppler('pdffonts', [pdfPath]).split('\n').slice(2).filter((l) => l.trim());
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) expect(line).toMatch(/DejaVuSans.*\byes\s+yes\s+yes\b/);
  });

  it('prints every figure of the JSON report, with the same strings', () => {
    const text = poppler('pdftotext', ['-layout', pdfPath, '-']);
    const tokens = new Set(text.split(/\s+/));
    const strings = allFigureStrings(report);
    expect(strings.length).toBeGreaterThan(50);
    for (const value of strings) expect(tokens, `figure ${value}`).toContain(value);
    // Header: customer, client, period, when and by what.
    for (const needle of ['cust-report-1', 'client-r', 'May 2023 to April 2024 (12 months)', report.metadata.generated_at, 'afford 0.1.0']) {
      expect(text).toContain(needle);
    }
    // Each month's row holds that month's four figures in order.
    const a = report.data.assessment;
    a.income.total.monthly_totals.forEach((m, i) => {
      const row = [m.amount, a.expenditure.essential.monthly_totals[i]?.amount, a.expenditure.non_essential.monthly_totals[i]?.amount,
        a.income.net.monthly_totals[i]?.amount].map((x) => x?.value).join('\\s+');
      expect(text).toMatch(new RegExp(`\\d{4}\\s+${row.replace(/\./g, '\\.')}`));
    });
    expect(text).toMatch(/Months with no income: 2023-05, 2023-06, .*2024-02\./);
    expect(text).toContain('Appendix');
  });

  it('right-aligns the month-by-month amounts in four columns', () => {
    const all = words(pdfPath);
    const headerWord = all.find((w) => w.text === 'Notes');
    expect(headerWord).toBeDefined();
    const amounts = all.filter((w) => w.page === headerWord!.page && w.yMin > headerWord!.yMin && /^-?\d+\.\d{2}$/.test(w.text));
    const rightEdges = new Map<number, number>();
    for (const w of amounts) rightEdges.set(Math.round(w.xMax), (rightEdges.get(Math.round(w.xMax)) ?? 0) + 1);
    // 12 months and the total row, in each of the four columns, all ending at the same x.
    const columns = [...rightEdges.entries()].filter(([, n]) => n >= 13);
    expect(columns.length).toBeGreaterThanOrEqual(4);
  });

  it('renders page 1 to a PNG that is not blank', () => {
    const prefix = path.join(dir, 'page');
    poppler('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', pdfPath, prefix]);
    const png = decodePng(readFileSync(`${prefix}.png`));
    expect(png.width).toBeGreaterThan(400);
    expect(png.height).toBeGreaterThan(500);
    const inked = countInkedPixels(png);
    // Text, tables and bars: a blank or text-only page would be far below this.
    expect(inked / (png.width * png.height)).toBeGreaterThan(0.03);
  });
});
