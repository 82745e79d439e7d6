import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
const db = process.argv[2] ?? '';
const inst = await DuckDBInstance.create(db, { memory_limit: '1GB' });
const c = await inst.connect();
const sql = readFileSync('sql/queries/api/bucket-monthly-totals.sql', 'utf8');
async function time(label: string) {
  const ts: number[] = [];
  for (let i = 0; i < 60; i++) {
    const id = `cust-${String(1 + ((i * 7919) % 16000)).padStart(6, '0')}`;
    const t = performance.now();
    await c.runAndReadAll(sql, { bucket_id: 'core-dashboard', client_id: 'bench-client', customer_id: id, currency: 'GBP', month_from: '2025-01-01', month_to: '2025-12-01' });
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  console.log(label, 'p50', ts[30]?.toFixed(1), 'p90', ts[54]?.toFixed(1));
}
const mode = process.argv[3];
await time('as is');
if (mode === 'order') {
  let t = performance.now();
  await c.run('BEGIN; CREATE TEMP TABLE m AS SELECT * FROM monthly_category_totals; DELETE FROM monthly_category_totals; INSERT INTO monthly_category_totals SELECT * FROM m ORDER BY client_id, customer_id, month; COMMIT;');
  console.log('reorder ms', performance.now() - t);
  await time('ordered');
  t = performance.now();
  await c.run('CREATE INDEX mct_customer ON monthly_category_totals (client_id, customer_id)');
  console.log('index ms', performance.now() - t);
  await time('ordered+index');
  const plan = await c.runAndReadAll('EXPLAIN ' + sql.replace(/\$(\w+)/g, (_m, n) => ({ bucket_id: "'core-dashboard'", client_id: "'bench-client'", customer_id: "'cust-000100'", currency: "'GBP'", month_from: "'2025-01-01'", month_to: "'2025-12-01'" } as Record<string, string>)[n] ?? 'NULL'));
  console.log(plan.getRows().map((r) => r[1]).join('\n').slice(0, 3000));
}
c.closeSync();
inst.closeSync();
