import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { InsightsData } from '../../src/reports/insights-model.js';
import { reportFigures } from '../../src/reports/report-model.js';
import { renderReportPdf, type PdfInput } from '../../src/reports/report-pdf.js';
import { buildReportWithTransactions } from '../../src/reports/report-service.js';
import { gbp, poppler } from '../helpers/pdf.js';
import { countInkedPixels, decodePng } from '../helpers/png.js';
import { fixturePath, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

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
    if (m) out.push({ page, yMin: Number(m[1]), xMax: Number(m[2]), text: (m[3] ?? '').replace(/&amp;/g, '&') });
  }
  return out;
}

const pageCount = (pdf: string): number => Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', [pdf]))?.[1]);
const pageText = (pdf: string, n: number): string => poppler('pdftotext', ['-layout', '-f', String(n), '-l', String(n), pdf, '-']);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\£]/g, '\\$&');

async function write(dir: string, name: string, input: PdfInput): Promise<string> {
  const file = path.join(dir, name);
  writeFileSync(file, await renderReportPdf(input));
  return file;
}

describe('the affordability report as a PDF', () => {
  let ctx: Ctx;
  let dir: string;
  let year: PdfInput;
  let yearPdf: string;
  let risky: PdfInput;
  let riskyPdf: string;
  let insights: InsightsData;
  beforeAll(async () => {
    ctx = await tempStore();
    dir = mkdtempSync(path.join(tmpdir(), 'afford-pdf-'));
    await ingestFile(ctx.pipeline, fixturePath('report-hand-computed.ndjson'), { batchRows: 1000 });
    await ingestFile(ctx.pipeline, fixturePath('insights-hand-computed.ndjson'), { batchRows: 1000 });
    // A whole year, so that the layout is tested at its largest usual size.
    year = (await buildReportWithTransactions(ctx.store, { clientId: 'client-r', customerId: 'cust-report-1', range: { from: '2023-05', to: '2024-04' }, currency: 'GBP' }))!;
    yearPdf = await write(dir, 'year.pdf', year);
    // A customer with every risk behaviour: two jobs, benefits, a payday loan, returned direct debits, an overdraft, heavy gambling.
    risky = (await buildReportWithTransactions(ctx.store, { clientId: 'client-i', customerId: 'cust-ins-1', range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' }))!;
    insights = risky.insights!;
    riskyPdf = await write(dir, 'risky.pdf', risky);
  });
  afterAll(async () => {
    await ctx.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is an A4 document set in the standard fonts, embedding one only for text they cannot show', async () => {
    const info = poppler('pdfinfo', [yearPdf]);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    expect(pageCount(yearPdf)).toBeGreaterThanOrEqual(2);
    expect(pageCount(yearPdf)).toBeLessThanOrEqual(4);
    const fonts = (file: string) => poppler('pdffonts', [file]).split('\n').slice(2).filter((l) => l.trim());
    for (const line of fonts(yearPdf)) expect(line).toMatch(/^Helvetica(-Bold)?\s+Type 1\s+WinAnsi\s+no\s+no\s+no/);
    // A holder's name in Polish and Chinese: DejaVu is embedded for it, and the text reads back.
    const names = { ...year, report: { ...year.report, data: { ...year.report.data, accounts: { ...year.report.data.accounts, holder_names: ['Łucja Żółć', 'Дмитрий Иванов'] } } } };
    const file = await write(dir, 'names.pdf', names);
    expect(fonts(file).some((l) => /DejaVuSans.*\byes\s+yes\s+yes\b/.test(l))).toBe(true);
    expect(pageText(file, 1)).toContain('Łucja Żółć, Дмитрий Иванов');
  });

  it('writes a character no font it carries can draw (a Chinese name, an emoji) as its code point, never as an empty box', async () => {
    const names = { ...year, report: { ...year.report, data: { ...year.report.data, accounts: { ...year.report.data.accounts, holder_names: ['王芳', 'Sam 💸\u200d🎰\ufe0f'] } } } };
    const text = pageText(await write(dir, 'unseen.pdf', names), 1);
    expect(text).toContain('[U+738B][U+82B3], Sam [U+1F4B8][U+1F3B0]');
  });

  it('prints every figure of the JSON report, as a person reads an amount', () => {
    const text = poppler('pdftotext', ['-layout', yearPdf, '-']);
    const strings = reportFigures(year.report.data).flatMap(({ figure }) => [
      figure.overall_total.value, figure.monthly_average.value,
      ...figure.monthly_totals.map((m) => m.amount.value), ...(figure.by_bucket_l2 ?? []).map((b) => b.amount.value),
    ]);
    expect(strings.length).toBeGreaterThan(50);
    const tokens = new Set(text.split(/\s+/));
    for (const value of strings) expect(tokens, `figure ${value}`).toContain(gbp(value));
    expect(text).not.toMatch(/(?<![£\d,])\d+\.\d{2}\b(?!%)/); // no bare amount without its symbol (shares are percentages)
    // Who, when (readable) and by what; accounts by name and type; buckets in words.
    const generated = new Date(year.report.metadata.generated_at);
    const when = `${generated.getUTCDate()} ${generated.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${generated.getUTCFullYear()} at`;
    for (const needle of ['cust-report-1', 'client-r', 'May 2023 to April 2024 (12 months)', when, 'afford 0.1.0', 'Council tax', 'Gambling']) {
      expect(text).toContain(needle);
    }
    expect(text).toMatch(/Current account\s+current account\s+Monzo\s+acc-main/);
    expect(text).toMatch(/Joint savings\s+savings account\s+Monzo\s+acc-save/);
    expect(text).not.toMatch(/council_tax|non_essentials|acc-main,/);
    // Each month's row holds that month's four figures in order.
    const a = year.report.data.assessment;
    a.income.total.monthly_totals.forEach((m, i) => {
      const row = [m.amount, a.expenditure.essential.monthly_totals[i]?.amount, a.expenditure.non_essential.monthly_totals[i]?.amount,
        a.income.net.monthly_totals[i]?.amount].map((x) => escape(gbp(x?.value ?? ''))).join('\\s+');
      expect(text).toMatch(new RegExp(`\\d{4}\\s+${row}`));
    });
    // Net income is a difference: its row has no count of transactions.
    expect(text).toMatch(new RegExp(`Net income \\(income - essential\\)\\s+${escape(gbp(a.income.net.overall_total.value))}\\s+${escape(gbp(a.income.net.monthly_average.value))}\\s*\\n`));
  });

  it('leaves out a column that would be empty', async () => {
    // Every month of this range has income and spending: no notes column.
    const full = (await buildReportWithTransactions(ctx.store, { clientId: 'client-i', customerId: 'cust-ins-1', range: { from: '2024-01', to: '2024-03' }, currency: 'GBP' }))!;
    const text = poppler('pdftotext', ['-layout', await write(dir, 'full.pdf', full), '-']);
    expect(text).not.toContain('Notes');
    expect(poppler('pdftotext', ['-layout', yearPdf, '-'])).toContain('Notes');
  });

  it('leads page 1 with the decision view: income, committed and flexible spending, disposable income and the risk flags with their values', () => {
    const page1 = pageText(riskyPdf, 1);
    const c = (v: string) => gbp(v);
    expect(page1.indexOf('Decision summary')).toBeLessThan(page1.search(/\nIncome and expenditure\s*\n/));
    expect(page1).toMatch(new RegExp(`Verified\\s+${escape(c(insights.income.verified.predicted_monthly.value))} a month`));
    expect(page1).toMatch(new RegExp(`Unverified\\s+${escape(c(insights.income.unverified.predicted_monthly.value))} a month`));
    expect(page1).toMatch(new RegExp(`Committed\\s+${escape(c(insights.expenditure.fixed.predicted_monthly.value))} a month`));
    expect(page1).toMatch(new RegExp(`Flexible\\s+${escape(c(insights.expenditure.flexible.predicted_monthly.value))} a month`));
    expect(page1).toMatch(new RegExp(`Over the period\\s+${escape(c(insights.disposable_income.overall_total.value))}`));
    expect(page1).toContain(`Deficit in ${'March 2024'}`);
    expect(page1).toContain('Risk flags: 5 of 6 raised');
    for (const s of insights.risk_signals) {
      const value = s.unit === 'percent' ? `${s.value}%` : s.unit === 'days' ? `${s.value} days` : s.value;
      expect(page1, s.name).toMatch(new RegExp(`${escape(s.label)}\\s+${escape(value)}\\s+.*${escape(c(s.amount.value))}.*\\s${s.flagged ? 'RAISED' : 'clear'}`));
    }
    expect(page1).toContain(`lowest ${c('-230.99')}`);
    // Disposable income month by month, March's deficit among them.
    const all = poppler('pdftotext', ['-layout', riskyPdf, '-']);
    for (const m of insights.disposable_income.monthly_totals) expect(all).toContain(c(m.amount.value));
    expect(all).toContain('-£105.99');
  });

  it('marks a deficit over the period plainly on page 1', async () => {
    const d = insights.disposable_income;
    const inDeficit = { ...insights, disposable_income: { ...d, overall_total: { ...d.overall_total, value: '-1234.56' }, monthly_average: { ...d.monthly_average, value: '-411.52' }, deficit: true } };
    const page1 = pageText(await write(dir, 'deficit.pdf', { ...risky, insights: inDeficit }), 1);
    expect(page1).toContain('DISPOSABLE INCOME: DEFICIT');
    expect(page1).toContain('Spending exceeds income');
    expect(page1).toMatch(/Over the period\s+-£1,234\.56/);
  });

  it('lists, for every raised flag, the transactions behind it, which sum to its amount', () => {
    const all = poppler('pdftotext', ['-layout', riskyPdf, '-']);
    const appendix = all.slice(all.indexOf('Appendix: the transactions behind each raised flag'));
    expect(appendix.length).toBeGreaterThan(100);
    const raised = insights.risk_signals.filter((s) => s.flagged);
    expect(raised.length).toBe(5);
    for (const [i, s] of raised.entries()) {
      const start = appendix.indexOf(`${s.label}:`);
      const end = i + 1 < raised.length ? appendix.indexOf(`${raised[i + 1]!.label}:`) : appendix.length;
      expect(start, s.name).toBeGreaterThanOrEqual(0);
      const section = appendix.slice(start, end);
      const rows = [...section.matchAll(/^\s*\d{1,2} [A-Z][a-z]{2} \d{4}\s+(.+?)\s+(in|out)\s+(£[\d,]+\.\d{2})/gm)];
      const main = s.detail?.fees ? rows.slice(0, s.transaction_count) : rows;
      expect(main.length, s.name).toBe(s.transaction_count);
      const pence = main.reduce((sum, r) => sum + Math.round(Number(r[3]!.replace(/[£,]/g, '')) * 100), 0);
      expect((pence / 100).toFixed(2), s.name).toBe(s.amount.value);
      expect(section).toMatch(new RegExp(`Total\\s+${s.transaction_count} transactions?\\s+${escape(gbp(s.amount.value))}`));
    }
    expect(appendix).toMatch(/6 Jan 2024\s+BET365\s+out\s+£100\.00/);
    expect(appendix).toContain('Fees charged for them');
  });

  it('prints the content hash on every page, the hash the PDF carries', () => {
    for (const file of [yearPdf, riskyPdf]) {
      const hash = /afford-content-hash:sha256:([0-9a-f]{64})/.exec(poppler('pdfinfo', [file]))?.[1];
      expect(hash).toBeDefined();
      for (let n = 1; n <= pageCount(file); n++) expect(pageText(file, n)).toContain(`Content hash (SHA-256 of the figures and the transactions behind them): ${hash}`);
      expect(poppler('pdfdetach', ['-list', file])).toContain('afford-report-provenance.json');
    }
  });

  it('right-aligns the month-by-month amounts in their columns', () => {
    const all = words(yearPdf);
    const headerWord = all.find((w) => w.text === 'Notes');
    expect(headerWord).toBeDefined();
    const amounts = all.filter((w) => w.page === headerWord!.page && w.yMin > headerWord!.yMin && /^-?£[\d,]+\.\d{2}$/.test(w.text));
    const rightEdges = new Map<number, number>();
    for (const w of amounts) rightEdges.set(Math.round(w.xMax), (rightEdges.get(Math.round(w.xMax)) ?? 0) + 1);
    // 12 months and the total row, in each of the four columns, all ending at the same x.
    expect([...rightEdges.values()].filter((n) => n >= 13).length).toBeGreaterThanOrEqual(4);
  });

  it('renders every page to a PNG that is not blank', () => {
    const prefix = path.join(dir, 'page');
    poppler('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', riskyPdf, prefix]);
    const png = decodePng(readFileSync(`${prefix}.png`));
    expect(png.width).toBeGreaterThan(400);
    expect(png.height).toBeGreaterThan(500);
    // Text, tiles and tables: a blank or near-empty page would be far below this.
    expect(countInkedPixels(png) / (png.width * png.height)).toBeGreaterThan(0.03);
  });
});
