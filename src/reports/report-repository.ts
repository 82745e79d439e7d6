import type { DuckDBConnection } from '@duckdb/node-api';
import { criterionRows } from '../domain/buckets.js';
import { CORE_DASHBOARD } from '../domain/core-dashboard.js';
import { monthStartDate } from '../domain/months.js';
import { readSnapshot } from '../db/read-snapshot.js';
import { queryFile, queryJsonFile, runScript } from '../db/script.js';
import type { Columns } from '../db/rows.js';
import type { Store } from '../db/store.js';
import { FIGURE_SOURCES, type AccountDetail, type FigureName } from './report-model.js';
import { customerKey, type CustomerRef } from '../domain/customer-ref.js';
import { readInsightRowsOn, type CustomerInsightRows } from './insights-repository.js';
import { EVIDENCE_KEYS, readEvidenceOn, type EvidenceRow } from './report-evidence.js';

/**
 * The SQL side of the report: sql/queries/reports/*.sql, run for one
 * customer (the API, the CLI) or for a chunk of hundreds of customers at
 * once (the nightly job), so the same statements give both and the bulk
 * pass stays set-based.
 */

/** One figure for one month (or the range when month is null), or one bucket L2 over the range. */
export interface FigureCell {
  client_id: string;
  customer_id: string;
  range_key: string;
  figure: FigureName;
  month: string | null;
  bucket_l2: string | null;
  total: string;
  transaction_count: number;
}

export interface CoverageRow {
  client_id: string;
  customer_id: string;
  range_key: string;
  months_with_data: string[];
  months_without_income: string[];
  months_without_expenditure: string[];
}

export interface AccountsRow {
  customer_id: string;
  client_id: string;
  account_ids: string[];
  holder_names: string[];
  account_details: AccountDetail[];
}

const FIGURE_CELL_COLUMNS: Columns<FigureCell> = {
  client_id: 'text', customer_id: 'text', range_key: 'text', figure: 'text', month: 'text', bucket_l2: 'text', total: 'text', transaction_count: 'number',
};
const COVERAGE_COLUMNS: Columns<CoverageRow> = {
  client_id: 'text', customer_id: 'text', range_key: 'text', months_with_data: 'list', months_without_income: 'list', months_without_expenditure: 'list',
};
const ACCOUNTS_COLUMNS: Columns<AccountsRow> = { customer_id: 'text', client_id: 'text', account_ids: 'list', holder_names: 'list', account_details: 'list' };

import type { KeyedRange } from './keyed-range.js';
export type { KeyedRange };

/** The key of a customer in the maps below. */
export const reportKey = (c: CustomerRef): string => customerKey(c.clientId, c.customerId);

export interface ReportScope {
  customers: readonly CustomerRef[];
  ranges: readonly KeyedRange[];
  accountIds?: readonly string[];
  currency: string;
  /** Also read the provenance (transaction-refs.sql) of this range, in the same snapshot as the figures. */
  refsRange?: string;
  /** Also read each customer's deletion mark (deletion-marks.sql), in the same snapshot. */
  deletionMarks?: boolean;
}

/** Everything the assembler needs for one customer, for each range of the scope. */
export interface CustomerReportRows {
  accounts: AccountsRow;
  /** The insights of the same customer and ranges, read in the same snapshot; absent counts as none. */
  insights?: CustomerInsightRows;
  cellsByRange: Map<string, FigureCell[]>;
  coverageByRange: Map<string, CoverageRow>;
  /** The JSON text of transaction-refs.sql for the scope's refsRange, when asked for. */
  transactionRefs?: string;
  /** The transactions behind the risk signals over the refsRange (report-evidence.ts), when asked for. */
  evidence?: EvidenceRow[];
  /** The version of the customer's latest deletion as the rows were read (null: never deleted), when asked for. */
  deletionMark?: string | null;
}

// The bucket mapping goes in as a parameter, so core-dashboard has one definition: src/domain.
const CRITERIA_JSON = JSON.stringify(criterionRows(CORE_DASHBOARD));
const FIGURES_JSON = JSON.stringify(FIGURE_SOURCES);

function scopeParams(scope: ReportScope): Record<string, string | null> {
  return {
    customers: JSON.stringify(scope.customers.map((c) => ({ client_id: c.clientId, customer_id: c.customerId }))),
    account_ids: scope.accountIds ? JSON.stringify(scope.accountIds) : null,
    currency: scope.currency,
    ranges: JSON.stringify(
      scope.ranges.map((r) => ({ range_key: r.key, month_from: monthStartDate(r.range.from), month_to: monthStartDate(r.range.to) })),
    ),
    criteria: CRITERIA_JSON,
    figures: FIGURES_JSON,
    refs_range: scope.refsRange ?? null,
  };
}

interface SnapshotRows {
  marks: Map<string, string | null> | undefined;
  accounts: AccountsRow[];
  cells: FigureCell[];
  coverage: CoverageRow[];
  refs: RefsRow[];
  insights: Map<string, CustomerInsightRows>;
  evidence: EvidenceRow[];
}

interface RefsRow {
  client_id: string;
  customer_id: string;
  refs: string;
}
const REFS_COLUMNS: Columns<RefsRow> = { client_id: 'text', customer_id: 'text', refs: 'text' };

/** The three report queries over one scope, run in one snapshot by the caller (whose rollback drops the scope's tables). */
async function readSnapshotRows(conn: DuckDBConnection, scope: ReportScope): Promise<SnapshotRows> {
  const params = scopeParams(scope);
  const marks = scope.deletionMarks ? await readDeletionMarksOn(conn, scope.customers) : undefined;
  await runScript(conn, 'queries/reports/scope', params);
  const accounts = await queryFile<AccountsRow>(conn, 'queries/reports/accounts', params, ACCOUNTS_COLUMNS);
  const cells = await queryJsonFile<FigureCell>(conn, 'queries/reports/figure-cells', params, FIGURE_CELL_COLUMNS);
  const coverage = await queryFile<CoverageRow>(conn, 'queries/reports/coverage', params, COVERAGE_COLUMNS);
  const insights = await readInsightRowsOn(conn, scope);
  const refs = scope.refsRange ? await queryFile<RefsRow>(conn, 'queries/reports/transaction-refs', params, REFS_COLUMNS) : [];
  // The transactions behind the risk signals, for a PDF's appendix: insight_tx is this snapshot's classification.
  const range = scope.ranges.find((r) => r.key === scope.refsRange)?.range;
  const evidence = range ? await readEvidenceOn(conn, range, EVIDENCE_KEYS) : [];
  return { marks, accounts, cells, coverage, refs, insights, evidence };
}

/**
 * Each customer's deletion mark (deletion-marks.sql), keyed by reportKey: read
 * with a slice's report rows, and again where its reports are stored.
 */
export async function readDeletionMarksOn(conn: DuckDBConnection, customers: readonly CustomerRef[]): Promise<Map<string, string | null>> {
  const json = JSON.stringify(customers.map((c) => ({ client_id: c.clientId, customer_id: c.customerId })));
  const rows = await queryFile<{ client_id: string; customer_id: string; mark: string | null }>(conn, 'queries/reports/deletion-marks', { customers: json }, {
    client_id: 'text', customer_id: 'text', mark: 'text',
  });
  return new Map(rows.map((r) => [reportKey({ clientId: r.client_id, customerId: r.customer_id }), r.mark]));
}

/** Every customer deletion written, with when (customer-deletions.sql): the nightly job prunes the PDFs made before it. */
export async function listDeletions(store: Store): Promise<Array<{ client_id: string; customer_id: string; deleted_at: string }>> {
  return store.read((conn) => queryFile<{ client_id: string; customer_id: string; deleted_at: string }>(conn, 'queries/reports/customer-deletions', {}, {
    client_id: 'text', customer_id: 'text', deleted_at: 'text',
  }));
}

/** Every customer, in order: the nightly job's work list. */
export async function listCustomers(store: Store): Promise<CustomerRef[]> {
  const rows = await store.read((conn) => queryFile<{ client_id: string; customer_id: string }>(conn, 'queries/reports/customer-ids', {}, { client_id: 'text', customer_id: 'text' }));
  return rows.map((r) => ({ clientId: r.client_id, customerId: r.customer_id }));
}

/** Report rows per customer (keyed by reportKey), in customer order. A customer that does not exist has no entry. */
export async function readReportRows(store: Store, scope: ReportScope): Promise<Map<string, CustomerReportRows>> {
  const { marks, accounts, cells, coverage, refs, insights, evidence } = await readSnapshot(store, (conn) => readSnapshotRows(conn, scope));
  const byCustomer = new Map<string, CustomerReportRows>();
  for (const a of accounts) {
    const key = reportKey({ clientId: a.client_id, customerId: a.customer_id });
    const noInsights: CustomerInsightRows = { cellsByRange: new Map(), groupsByRange: new Map(), overdraftByRange: new Map() };
    byCustomer.set(key, { accounts: a, insights: insights.get(key) ?? noInsights, cellsByRange: new Map(), coverageByRange: new Map() });
    if (marks) (byCustomer.get(key) as CustomerReportRows).deletionMark = marks.get(key) ?? null;
  }
  for (const cell of cells) {
    const entry = byCustomer.get(reportKey({ clientId: cell.client_id, customerId: cell.customer_id }));
    if (!entry) continue;
    let list = entry.cellsByRange.get(cell.range_key);
    if (!list) entry.cellsByRange.set(cell.range_key, (list = []));
    list.push(cell);
  }
  for (const c of coverage) byCustomer.get(reportKey({ clientId: c.client_id, customerId: c.customer_id }))?.coverageByRange.set(c.range_key, c);
  for (const r of refs) {
    const entry = byCustomer.get(reportKey({ clientId: r.client_id, customerId: r.customer_id }));
    if (entry) entry.transactionRefs = r.refs;
  }
  for (const e of evidence) {
    const entry = byCustomer.get(reportKey({ clientId: e.client_id, customerId: e.customer_id }));
    if (entry) (entry.evidence ??= []).push(e);
  }
  return byCustomer;
}

/** The requested account ids that are not the customer's (neither in accounts nor in transactions). */
export async function findForeignAccounts(store: Store, customer: CustomerRef, accountIds: readonly string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await store.read((conn) =>
    queryFile<{ account_id: string }>(conn, 'queries/reports/foreign-accounts', {
      client_id: customer.clientId,
      customer_id: customer.customerId,
      account_ids: JSON.stringify(accountIds),
    }, { account_id: 'text' }),
  );
  return rows.map((r) => r.account_id);
}
