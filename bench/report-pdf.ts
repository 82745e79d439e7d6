/**
 * Report PDFs, each figure against a baseline taken in the same run,
 * because these machines are noisy:
 *   1. one core: afford renders generated customers' 12-month reports one
 *      after another on this thread; the baselines are pdfkit rendering a
 *      minimal document of the same page count (a line of text a page), and
 *      JSON serialisation of the same report and insights;
 *   2. the nightly job (`afford jobs run affordability-reports`, a child
 *      process under /usr/bin/time for its peak RSS and CPU time) with
 *      AFFORD_REPORTS_DIR set, against the same job without PDFs, --runs
 *      times each (alternating, so that both see the same load): what the
 *      PDFs add, and how close the job with PDFs comes to the larger of the
 *      job without them and the PDFs alone (their CPU time on one core,
 *      from 1., spread over the worker pool) rather than to their sum.
 *
 * Usage: node --import tsx bench/report-pdf.ts [--customers 2000] [--sample 200] [--runs 1]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import PDFDocument from 'pdfkit';
import type { PdfInput } from '../src/reports/report-pdf.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.join(here, '..');
const afford = path.join(root, 'bin', 'afford.mjs');
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const fmt = (n: number, digits = 0): string => n.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Run {
  seconds: number;
  cpuSeconds: number;
  maxRssMiB: number;
  stdout: string;
}

function measured(args: string[], env: Record<string, string>): Run {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-v', ...args], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const cpu = (label: string): number => Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? NaN);
  return { seconds, cpuSeconds: cpu('User') + cpu('System'), maxRssMiB: kb / 1024, stdout: r.stdout };
}

/** A minimal pdfkit document of `pages` pages: a line of Helvetica on each. */
function minimalPdf(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', compress: false });
  for (let i = 0; i < pages; i++) {
    if (i) doc.addPage();
    doc.font('Helvetica').fontSize(9).text(`Page ${i + 1}`, 42, 42);
  }
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = once(doc, 'end').then(() => Buffer.concat(chunks));
  doc.end();
  return done;
}

/** CPU milliseconds of this thread's process while `fn` runs, and its wall milliseconds. */
async function timed(fn: () => Promise<void>): Promise<{ cpuMs: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { customers: { type: 'string', default: '2000' }, sample: { type: 'string', default: '200' }, runs: { type: 'string', default: '1' } } });
  const customers = Number(values.customers);
  const sample = Number(values.sample);
  const runs = Math.max(1, Number(values.runs));
  const dir = mkdtempSync(path.join(tmpdir(), 'afford-bench-pdf-'));
  const db = path.join(dir, 'afford.duckdb');
  try {
    const { lastCompleteMonths } = await import('../src/domain/months.js');
    const range = lastCompleteMonths(12);
    const events = path.join(dir, 'events.ndjson');
    const { writeEventsFile } = await import('../src/generate/index.js');
    await writeEventsFile({ customers, months: 12, seed: 7, faults: false, endMonth: range.to }, events);
    const ingest = measured([process.execPath, afford, 'ingest', 'file', events], { AFFORD_DB: db, AFFORD_LOG_LEVEL: 'silent' });
    say(`${fmt(customers)} customers, 12 months to ${range.to}, ingested in ${ingest.seconds.toFixed(1)} s`);

    // 1. One core.
    const { Store } = await import('../src/db/store.js');
    const { createLogger } = await import('../src/logger.js');
    const { listCustomers } = await import('../src/reports/report-repository.js');
    const { buildReportWithTransactions } = await import('../src/reports/report-service.js');
    const { renderReportPdf } = await import('../src/reports/report-pdf.js');
    const store = await Store.open(db, createLogger('silent'));
    // 20 more customers than the sample, to warm up on: the sample's own text is measured cold, as each night's is.
    const refs = (await listCustomers(store)).slice(0, sample + 20);
    const inputs: PdfInput[] = [];
    const warmUp: PdfInput[] = [];
    for (const [i, c] of refs.entries()) {
      const input = await buildReportWithTransactions(store, { ...c, range, currency: 'GBP' });
      if (input) (i < sample ? inputs : warmUp).push(input);
    }
    await store.close();
    const pdfs: Buffer[] = [];
    for (const input of warmUp) await renderReportPdf(input);
    const ours = await timed(async () => {
      for (const input of inputs) pdfs.push(await renderReportPdf(input));
    });
    const pagesOf = (pdf: Buffer): number => pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 1;
    const pages = pdfs.map(pagesOf);
    for (const n of pages.slice(0, 20)) await minimalPdf(n);
    const minimal = await timed(async () => {
      for (const n of pages) await minimalPdf(n);
    });
    const json = await timed(async () => {
      for (const input of inputs) JSON.stringify({ report: input.report, insights: input.insights });
    });
    const perSecond = (t: { cpuMs: number }) => (inputs.length * 1000) / t.cpuMs;
    const avgPages = pages.reduce((a, b) => a + b, 0) / Math.max(1, pages.length);
    const avgKb = pdfs.reduce((a, b) => a + b.length, 0) / Math.max(1, pdfs.length) / 1024;
    say(`\none core, ${inputs.length} reports of 12 months (${avgPages.toFixed(1)} pages, ${avgKb.toFixed(0)} KB on average), per CPU second:`);
    say(`  afford PDF                          ${fmt(perSecond(ours), 1).padStart(9)} /s  (${(ours.cpuMs / inputs.length).toFixed(2)} ms each; target at least 50/s)`);
    say(`  baseline: pdfkit, minimal document  ${fmt(perSecond(minimal), 1).padStart(9)} /s  ratio ${(perSecond(ours) / perSecond(minimal)).toFixed(3)}`);
    say(`  baseline: JSON of the same report   ${fmt(perSecond(json), 1).padStart(9)} /s  ratio ${(perSecond(ours) / perSecond(json)).toFixed(4)}`);
    say(`  peak RSS of this process: ${fmt(process.resourceUsage().maxRSS / 1024)} MiB`);

    // 2. The nightly job, with and without PDFs, alternating.
    const job = [process.execPath, afford, 'jobs', 'run', 'affordability-reports'];
    const pdfDir = path.join(dir, 'pdfs');
    const workers = availableParallelism();
    // The PDFs alone: their CPU time on one core (1.), spread over the pool's workers.
    const pdfsAlone = (customers * ours.cpuMs) / inputs.length / 1000 / workers;
    const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
    say(`\nnightly affordability-reports job, ${fmt(customers)} customers (3 ranges each), PDF worker pool of ${workers} workers:`);
    let written = 0;
    for (let i = 1; i <= runs; i++) {
      const loadBefore = load();
      const without = measured(job, { AFFORD_DB: db, AFFORD_LOG_LEVEL: 'silent' });
      rmSync(pdfDir, { recursive: true, force: true });
      const withPdfs = measured(job, { AFFORD_DB: db, AFFORD_LOG_LEVEL: 'silent', AFFORD_REPORTS_DIR: pdfDir });
      written = readdirSync(pdfDir, { recursive: true }).filter((f) => String(f).endsWith('.pdf')).length;
      const larger = Math.max(without.seconds, pdfsAlone);
      say(`  run ${i} (load average ${loadBefore} before, ${load()} after):`);
      say(`    with ${fmt(written)} PDFs        ${withPdfs.seconds.toFixed(1).padStart(6)} s, CPU ${withPdfs.cpuSeconds.toFixed(1)} s, peak RSS ${fmt(withPdfs.maxRssMiB)} MiB  (target under 30 s)`);
      say(`    baseline: no PDFs     ${without.seconds.toFixed(1).padStart(6)} s, CPU ${without.cpuSeconds.toFixed(1)} s, peak RSS ${fmt(without.maxRssMiB)} MiB  ratio ${(withPdfs.seconds / without.seconds).toFixed(2)}`);
      say(`    the PDFs alone        ${pdfsAlone.toFixed(1).padStart(6)} s  (${fmt(customers)} x ${(ours.cpuMs / inputs.length).toFixed(2)} ms / ${workers} workers)`);
      say(`    with PDFs / larger of the two ${(withPdfs.seconds / larger).toFixed(2)}, / their sum ${(withPdfs.seconds / (without.seconds + pdfsAlone)).toFixed(2)}; the PDFs add ${(withPdfs.seconds - without.seconds).toFixed(1)} s`);
      if (i === runs) say(`    ${withPdfs.stdout.trim()}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
