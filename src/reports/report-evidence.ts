import type { DuckDBConnection } from '@duckdb/node-api';
import { monthStartDate, type MonthRange } from '../domain/months.js';
import type { Columns } from '../db/rows.js';
import { queryJsonFile } from '../db/script.js';
import type { InsightsData, RiskSignal } from './insights-model.js';
import { insightRules } from './insights-rules.js';

/**
 * The transactions behind each risk signal, for the PDF's appendix. A
 * signal's link names the insight keys it selects (`insight=gambling`); the
 * appendix lists exactly the transactions that link lists, over the
 * report's range, so its total is the signal's amount.
 */

export interface EvidenceRow {
  client_id: string;
  customer_id: string;
  transaction_id: string;
  date: string;
  description: string;
  amount: string;
  direction: string;
  running_balance: string | null;
  keys: string[];
}

const COLUMNS: Columns<EvidenceRow> = {
  client_id: 'text', customer_id: 'text', transaction_id: 'text', date: 'text', description: 'text', amount: 'text',
  direction: 'text', running_balance: 'text', keys: 'list',
};

/** The insight keys a transactions link selects (its `insight` parameters). */
export function linkKeys(link: string | undefined): string[] {
  if (!link) return [];
  return new URLSearchParams(link.split('?')[1] ?? '').getAll('insight');
}

/** The keys of a signal's evidence: its transactions, and the fees of returned direct debits. */
export function signalKeys(signal: RiskSignal): { main: string[]; fees: string[] } {
  return { main: linkKeys(signal._links.transactions), fees: linkKeys(signal.detail?.fees?._links.transactions) };
}

/**
 * The rows a PDF's appendix can show: those behind a raised flag. The
 * appendix lists only these, so a worker need not be sent the rest (most of
 * a customer's evidence rows, when no flag is raised).
 */
export function evidenceOfRaisedFlags(insights: InsightsData, rows: readonly EvidenceRow[]): EvidenceRow[] {
  const keys = new Set(insights.risk_signals.filter((s) => s.flagged).flatMap((s) => {
    const { main, fees } = signalKeys(s);
    return [...main, ...fees];
  }));
  return keys.size === 0 ? [] : rows.filter((r) => r.keys.some((k) => keys.has(k)));
}

/** Every insight key a risk signal's links name: the rules' signal keys, and `overdrawn` (a running balance below zero). */
export const EVIDENCE_KEYS: readonly string[] = [...Object.keys(insightRules().signals), 'overdrawn'];

/** Evidence rows of the customers classified into insight_tx on `conn` (queries/insights/scope, run first), in date order. */
export async function readEvidenceOn(conn: DuckDBConnection, range: MonthRange, keys: readonly string[]): Promise<EvidenceRow[]> {
  return queryJsonFile<EvidenceRow>(conn, 'queries/reports/signal-evidence', {
    keys: JSON.stringify(keys),
    month_from: monthStartDate(range.from),
    month_to: monthStartDate(range.to),
  }, COLUMNS);
}
