import { Store } from '../src/db/store.js';
import { createLogger } from '../src/logger.js';
import { readSnapshot } from '../src/db/read-snapshot.js';
import { runScript, queryFile } from '../src/db/script.js';
import { insightRuleParams, regularityParams } from '../src/reports/insights-rules.js';
import { criterionRows } from '../src/domain/buckets.js';
import { CORE_DASHBOARD } from '../src/domain/core-dashboard.js';
import { listCustomers } from '../src/reports/report-repository.js';
const store = await Store.open('/tmp/ins-bench/b300.duckdb', createLogger('silent'));
const customers = await listCustomers(store);
const params = {
  customers: JSON.stringify(customers.map((c) => ({ client_id: c.clientId, customer_id: c.customerId }))),
  ranges: JSON.stringify([['3', '2026-08-01'], ['6', '2026-05-01'], ['12', '2025-11-01']].map(([k, f]) => ({ range_key: k, month_from: f, month_to: '2026-10-01' }))),
  account_ids: null, currency: 'GBP', criteria: JSON.stringify(criterionRows(CORE_DASHBOARD)), ...insightRuleParams(),
};
await readSnapshot(store, async (conn) => {
  let t = Date.now();
  await runScript(conn, 'queries/insights/scope', params); console.log('scope', Date.now() - t); t = Date.now();
  const c = await queryFile(conn, 'queries/insights/cells', {}); console.log('cells', c.length, Date.now() - t); t = Date.now();
  const g = await queryFile(conn, 'queries/insights/groups', regularityParams()); console.log('groups', g.length, Date.now() - t); t = Date.now();
  const o = await queryFile(conn, 'queries/insights/overdraft', params); console.log('overdraft', o.length, Date.now() - t);
});
await store.close();
