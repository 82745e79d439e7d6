import { attachJson } from './pdf-attachment.js';
import { longMonth } from './pdf-format.js';
import { PdfPage } from './pdf-layout.js';
import { accounts, bucketAppendix, chart, header, monthByMonth, sufficiency, summary } from './pdf-sections.js';
import type { AffordabilityReport } from './report-model.js';
import { buildProvenance, PROVENANCE_FILE_NAME } from './report-provenance.js';
import type { InsightsData } from './insights-model.js';
import type { EvidenceRow } from './report-evidence.js';
import { decisionTiles, riskFlags } from './pdf-decision.js';
import { commitments, flagEvidence, incomeStreams } from './pdf-insights.js';

/**
 * The affordability report as an A4 PDF for a lender. Every amount printed
 * is the report's own string, formatted for reading, so the PDF and the JSON
 * agree to the penny. The PDF embeds its provenance (report-provenance.ts)
 * and prints its content hash on every page, so that `afford report verify`
 * can later say whether the store still gives the same report.
 */

export { longMonth };

export interface PdfInput {
  report: AffordabilityReport;
  /** The JSON text of transaction-refs.sql for the report's customer and range. */
  transactions: string;
  /** The insights to print, when not the report's own (data.insights). */
  insights?: InsightsData;
  /** The transactions behind the risk signals (report-evidence.ts). */
  evidence?: EvidenceRow[];
}

/** Renders the report; resolves to the PDF's bytes. */
export async function renderReportPdf({ report, transactions, insights: given, evidence }: PdfInput): Promise<Buffer> {
  const { metadata } = report;
  const insights = given ?? report.data.insights;
  const provenance = buildProvenance(report, transactions, insights);
  const page = new PdfPage({
    title: `Affordability report: ${metadata.customer_id}, ${metadata.month_from} to ${metadata.month_to}`,
    subject: `Affordability report for customer ${metadata.customer_id} of client ${metadata.client_id}`,
    author: `${metadata.generator.name} ${metadata.generator.version}`,
    keywords: `afford-content-hash:sha256:${provenance.hash}`,
    created: new Date(metadata.generated_at),
  });
  header(page, report);
  if (insights) {
    decisionTiles(page, insights);
    riskFlags(page, insights);
  }
  summary(page, report);
  accounts(page, report);
  page.newPage();
  chart(page, report);
  monthByMonth(page, report, insights);
  sufficiency(page, report);
  if (insights) {
    page.newPage();
    incomeStreams(page, insights);
    commitments(page, insights);
  }
  bucketAppendix(page, report);
  if (insights) flagEvidence(page, insights, evidence ?? []);
  attachJson(page.doc, PROVENANCE_FILE_NAME, provenance.json, 'The figures of this report and the transactions behind them, for afford report verify');
  page.footers(
    `Affordability report · ${metadata.customer_id} · ${longMonth(metadata.month_from)} to ${longMonth(metadata.month_to)} · ${metadata.generator.name} ${metadata.generator.version}`,
    (n, of) => `Page ${n} of ${of}`,
    `Content hash (SHA-256 of the figures and the transactions behind them): ${provenance.hash}`,
  );
  return page.finish();
}
