import type { DuckDBConnection } from '@duckdb/node-api';
import { criterionRows } from '../domain/buckets.js';
import { CORE_DASHBOARD } from '../domain/core-dashboard.js';
import { customerKey, type CustomerRef } from '../domain/customer-ref.js';
import { monthStartDate } from '../domain/months.js';
import { readSnapshot } from '../db/read-snapshot.js';
import type { Columns } from '../db/rows.js';
import { queryFile, queryJsonFile, runScript } from '../db/script.js';
import type { Store } from '../db/store.js';
import { insightRuleParams, regularityParams } from './insights-rules.js';
import type { KeyedRange } from './keyed-range.js';

/**
 * The SQL side of the insights: sql/queries/insights/*.sql, for one
 * customer (the API) or a chunk of customers (the nightly job), so both run
 * the same statements.
 */

/** One insight key's total for one month (or the range when month is null). */
export interface InsightCell {
  client_id: string;
  customer_id: string;
  range_key: string;
  key: string;
  month: string | null;
  total: string;
  transaction_count: number;
}

/** A stream or commitment: its regularity and amounts over one range. */
export interface InsightGroup {
  client_id: string;
  customer_id: string;
  range_key: string;
  key: string;
  name: string;
  frequency: string;
  months_present: string[];
  amounts: string[];
  last_date: string;
  next_expected_date: string | null;
}

export interface OverdraftRow {
  client_id: string;
  customer_id: string;
  range_key: string;
  days: number;
  deepest_balance: string | null;
}

const CELL_COLUMNS: Columns<InsightCell> = {
  client_id: 'text', customer_id: 'text', range_key: 'text', key: 'text', month: 'text', total: 'text', transaction_count: 'number',
};
const GROUP_COLUMNS: Columns<InsightGroup> = {
  client_id: 'text', customer_id: 'text', range_key: 'text', key: 'text', name: 'text', frequency: 'text', months_present: 'list',
  amounts: 'list', last_date: 'text', next_expected_date: 'text',
};
const OVERDRAFT_COLUMNS: Columns<OverdraftRow> = { client_id: 'text', customer_id: 'text', range_key: 'text', days: 'number', deepest_balance: 'text' };

export interface InsightScope {
  customers: readonly CustomerRef[];
  ranges: readonly KeyedRange[];
  accountIds?: readonly string[];
  /** null: every currency (only the transaction list asks for that). */
  currency: string | null;
}

export interface CustomerInsightRows {
  cellsByRange: Map<string, InsightCell[]>;
  groupsByRange: Map<string, InsightGroup[]>;
  overdraftByRange: Map<string, OverdraftRow>;
}

const CRITERIA_JSON = JSON.stringify(criterionRows(CORE_DASHBOARD));

function scopeParams(scope: InsightScope): Record<string, string | null> {
  return {
    customers: JSON.stringify(scope.customers.map((c) => ({ client_id: c.clientId, customer_id: c.customerId }))),
    ranges: JSON.stringify(scope.ranges.map((r) => ({ range_key: r.key, month_from: monthStartDate(r.range.from), month_to: monthStartDate(r.range.to) }))),
    account_ids: scope.accountIds ? JSON.stringify(scope.accountIds) : null,
    currency: scope.currency,
    criteria: CRITERIA_JSON,
    ...insightRuleParams(),
  };
}

/** Classifies the scope's transactions into this connection's insight_tx (see queries/insights/scope). */
export async function classifyTransactions(conn: DuckDBConnection, scope: InsightScope): Promise<void> {
  await runScript(conn, 'queries/insights/scope', scopeParams(scope));
}

/**
 * Every range's insight rows per customer (keyed by customerKey), read on
 * `conn` (inside the caller's read transaction, whose rollback drops the
 * temporary tables). A customer that does not exist has no entry.
 */
export async function readInsightRowsOn(conn: DuckDBConnection, scope: InsightScope): Promise<Map<string, CustomerInsightRows>> {
  const params = scopeParams(scope);
  await runScript(conn, 'queries/insights/scope', params);
  const subjects = await queryFile<{ client_id: string; customer_id: string }>(conn, 'queries/insights/subjects', {}, { client_id: 'text', customer_id: 'text' });
  const cells = await queryJsonFile<InsightCell>(conn, 'queries/insights/cells', {}, CELL_COLUMNS);
  const groups = await queryJsonFile<InsightGroup>(conn, 'queries/insights/groups', regularityParams(), GROUP_COLUMNS);
  const overdraft = await queryFile<OverdraftRow>(conn, 'queries/insights/overdraft', params, OVERDRAFT_COLUMNS);
  const byCustomer = new Map<string, CustomerInsightRows>();
  for (const s of subjects) byCustomer.set(customerKey(s.client_id, s.customer_id), { cellsByRange: new Map(), groupsByRange: new Map(), overdraftByRange: new Map() });
  const push = <T extends { client_id: string; customer_id: string; range_key: string }>(rows: T[], pick: (e: CustomerInsightRows) => Map<string, T[]>) => {
    for (const row of rows) {
      const entry = byCustomer.get(customerKey(row.client_id, row.customer_id));
      if (!entry) continue;
      const map = pick(entry);
      let list = map.get(row.range_key);
      if (!list) map.set(row.range_key, (list = []));
      list.push(row);
    }
  };
  push(cells, (e) => e.cellsByRange);
  push(groups, (e) => e.groupsByRange);
  for (const o of overdraft) byCustomer.get(customerKey(o.client_id, o.customer_id))?.overdraftByRange.set(o.range_key, o);
  return byCustomer;
}

/** readInsightRowsOn in a read snapshot of its own. */
export function readInsightRows(store: Store, scope: InsightScope): Promise<Map<string, CustomerInsightRows>> {
  return readSnapshot(store, (conn) => readInsightRowsOn(conn, scope));
}

/**
 * The ids of a customer's transactions that carry any of `keys`, over all
 * their months: what a link's `insight=` selects. Classified over the
 * accounts the link names, as its figure was: a payment to the customer's own
 * credit card is spending only when the card's account is not among them.
 */
export async function insightTransactionIds(conn: DuckDBConnection, customer: CustomerRef, keys: readonly string[], accountIds?: readonly string[]): Promise<string[]> {
  await classifyTransactions(conn, {
    customers: [customer],
    ranges: [{ key: 'all', range: { from: '1970-01', to: '2100-12' } }],
    ...(accountIds?.length ? { accountIds } : {}),
    currency: null,
  });
  const rows = await queryFile<{ transaction_id: string }>(conn, 'queries/insights/members', { keys: JSON.stringify(keys) }, { transaction_id: 'text' });
  return rows.map((r) => r.transaction_id);
}
