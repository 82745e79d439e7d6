import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isKnownCurrency } from '../domain/currencies.js';
import { LIMITS, nestsDeeperThan } from '../domain/event-limits.js';
import { MAX_RANGE_MONTHS } from '../domain/month-range.js';
import { isMonth, monthCount } from '../domain/months.js';
import type { AffordabilityReport, ReportData } from './report-model.js';
import type { InsightsData } from './insights-model.js';

/**
 * What makes a report re-derivable: its figures, and the identity and
 * version of every transaction its figures could count (transaction-refs.sql),
 * with the figure, bucket and month each counts towards and its amount. The
 * content hash is SHA-256 over the request, the figures and those
 * transactions; it leaves out when the report was made, so the same store
 * gives the same hash at any time. The PDF carries all of it (an embedded
 * file) and prints the hash on every page; verification recomputes it from
 * the store and, where it differs, explains which figures changed and which
 * transactions changed them.
 */

export const PROVENANCE_FORMAT = 'afford-report-provenance/1';
export const PROVENANCE_FILE_NAME = 'afford-report-provenance.json';

/** [transaction_id, occurred_at, event_id, figure, bucket_l2, month, amount]: occurred_at and event_id are its version. */
export type TransactionRef = [string, string, string, string | null, string | null, string, string];

export type FigureValue = string | number | boolean | null;

export interface ProvenanceRequest {
  client_id: string;
  customer_id: string;
  month_from: string;
  month_to: string;
  currency: string;
  account_ids: string[] | null;
}

export interface ReportProvenance {
  format: typeof PROVENANCE_FORMAT;
  content_hash: string;
  request: ProvenanceRequest;
  generated_at: string;
  generator: { name: string; version: string };
  /** The report's data and insights, links left out, as the PDF carries them. */
  data: Record<string, unknown>;
  /** Every value of `data` by its path (computed when read back). */
  figures: Record<string, FigureValue>;
  transactions: TransactionRef[];
}

/** The keys that name an element of a list better than its position does. */
const ELEMENT_KEYS = ['month', 'bucket_l2', 'account_id', 'stream_id', 'signal', 'id', 'name'];

function elementName(item: unknown, index: number): string {
  if (item && typeof item === 'object') {
    const record = item as Record<string, unknown>;
    for (const key of ELEMENT_KEYS) {
      const v = record[key];
      if (typeof v === 'string' || typeof v === 'number') return `[${key}=${v}]`;
    }
  }
  return `[${index}]`;
}

function walk(value: unknown, path: string, out: Record<string, FigureValue>): void {
  if (value === null || typeof value !== 'object') {
    out[path] = value === undefined ? null : (value as FigureValue);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) out[path] = '[]';
    value.forEach((item, i) => walk(item, `${path}${elementName(item, i)}`, out));
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => k !== '_links');
  // An amount is its value: the currency is the report's, in the request.
  if (keys.length === 2 && typeof record['value'] === 'string' && typeof record['currency'] === 'string') {
    out[path] = record['value'];
    return;
  }
  for (const key of keys) walk(record[key], path ? `${path}.${key}` : key, out);
}

/** Every value of the report's data by its path ('assessment.income.total.monthly_totals[month=2024-01].amount'), links left out. */
export function flattenFigures(data: ReportData | object): Record<string, FigureValue> {
  const out: Record<string, FigureValue> = {};
  walk(data, '', out);
  return out;
}

const dropLinks = (key: string, value: unknown): unknown => (key === '_links' ? undefined : value);

/**
 * The report's data and its insights (under `insights`, when the report
 * does not carry them itself) as JSON, links left out: what the hash covers
 * and the PDF carries. Links follow from the request; leaving them out
 * halves the text to hash and embed.
 */
export function dataJsonOf(report: AffordabilityReport, insights?: InsightsData): string {
  const data: object = insights && insights !== report.data.insights ? { ...report.data, insights } : report.data;
  return JSON.stringify(data, dropLinks);
}

/** Every value of a report and its insights by path: what verification compares. */
export function reportFigureValues(report: AffordabilityReport, insights?: InsightsData): Record<string, FigureValue> {
  return flattenFigures(JSON.parse(dataJsonOf(report, insights)) as object);
}

export function provenanceRequest(report: AffordabilityReport): ProvenanceRequest {
  const m = report.metadata;
  return { client_id: m.client_id, customer_id: m.customer_id, month_from: m.month_from, month_to: m.month_to, currency: m.currency, account_ids: m.account_ids };
}

/** SHA-256 over the request, the data and the transactions' JSON text, in that order. */
export function contentHash(request: ProvenanceRequest, dataJson: string, transactionsJson: string): string {
  return createHash('sha256')
    .update(JSON.stringify(request))
    .update('\n')
    .update(dataJson)
    .update('\n')
    .update(transactionsJson)
    .digest('hex');
}

/**
 * The provenance of a report as JSON text, and its hash. The data and the
 * transactions go in as JSON text made once (the transactions by SQL),
 * spliced rather than parsed and written again: a year of a busy customer
 * is a thousand transactions.
 */
export function buildProvenance(report: AffordabilityReport, transactionsJson: string, insights?: InsightsData): { hash: string; json: string } {
  const request = provenanceRequest(report);
  const dataJson = dataJsonOf(report, insights);
  const hash = contentHash(request, dataJson, transactionsJson);
  const head = {
    format: PROVENANCE_FORMAT,
    content_hash: hash,
    request,
    generated_at: report.metadata.generated_at,
    generator: report.metadata.generator,
  };
  const json = `${JSON.stringify(head).slice(0, -1)},"data":${dataJson},"transactions":${transactionsJson}}`;
  return { hash, json };
}

/**
 * What a provenance read back may hold: far more than any report's (a year
 * of a busy customer is some 2,000 figures and a thousand transactions, ten
 * years ten times that), and little enough that checking a made-up one costs
 * what a real one does. What is past them was not made by afford.
 */
export const PROVENANCE_LIMITS = { figures: 100_000, transactions: 200_000, depth: 32 } as const;

const id = z.string().min(1).max(LIMITS.id);
const month = z.string().refine(isMonth);
const short = z.string().max(LIMITS.text);

const provenanceSchema = z.object({
  format: z.literal(PROVENANCE_FORMAT),
  content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  request: z.object({
    client_id: id,
    customer_id: id,
    month_from: month,
    month_to: month,
    currency: z.string().refine(isKnownCurrency),
    account_ids: z.array(id).max(50).nullable(),
  }).refine((r) => r.month_from <= r.month_to && monthCount({ from: r.month_from, to: r.month_to }) <= MAX_RANGE_MONTHS),
  generated_at: short,
  generator: z.object({ name: short, version: short }),
  data: z.record(z.string(), z.unknown()),
  transactions: z.array(z.tuple([id, short, short, short.nullable(), short.nullable(), short, short])).max(PROVENANCE_LIMITS.transactions),
});

/**
 * The provenance read back from a PDF: undefined when the text is not one,
 * `refused` when it says it is one but could not come from afford (a request
 * no report takes, more than any report holds).
 */
export function parseProvenance(text: string): ReportProvenance | { refused: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if ((json as { format?: unknown } | null)?.format !== PROVENANCE_FORMAT) return undefined;
  // Checked before the schema and the walk, which recurse.
  if (nestsDeeperThan(json, PROVENANCE_LIMITS.depth)) return { refused: `nests deeper than ${PROVENANCE_LIMITS.depth} levels` };
  const parsed = provenanceSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { refused: `${issue?.path.join('.') || 'provenance'}: is not what a report carries` };
  }
  const { data, ...rest } = parsed.data;
  const figures = flattenFigures(data);
  if (Object.keys(figures).length > PROVENANCE_LIMITS.figures) return { refused: `holds more than ${PROVENANCE_LIMITS.figures} figures` };
  return { ...rest, data, figures } as ReportProvenance;
}
