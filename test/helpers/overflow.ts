import type { IngestPipeline } from '../../src/ingest/pipeline.js';
import type { Store } from '../../src/db/store.js';

/** A salary transaction event (client-a, account acc-1) numbered `n`, dated the 2nd of `month` ('YYYY-MM'). */
export const salaryLine = (n: number, customerId: string, month: string, amount = '5.00'): string =>
  JSON.stringify({
    event_id: `ev-${n}`, type: 'transaction.upserted', occurred_at: '2024-05-01T00:00:00Z', client_id: 'client-a', customer_id: customerId,
    data: {
      transaction_id: `tx-${n}`, account_id: 'acc-1', credit_debit_indicator: 'credit', amount: { value: amount, currency: 'GBP' },
      date_time: `${month}-02T09:00:00Z`, enrichments: { categories: { l1: { slug: 'income' }, l2: { slug: 'salary' } } },
    },
  });

/**
 * Leaves cust-1's April 2024 (salaryLine 0) summing to the largest
 * DECIMAL(18,2), as data written before amounts were bounded can: any later
 * April transaction of cust-1 overflows its monthly total in SQL, so the
 * store rejects an event that validation passed.
 */
export async function overflowCust1April(ctx: { store: Store; pipeline: IngestPipeline }): Promise<void> {
  await ctx.pipeline.ingest([{ raw: salaryLine(0, 'cust-1', '2024-04', '1.00'), ref: { source: 'file', sourceRef: 'legacy', lineNumber: 1 } }]);
  await ctx.store.write((conn) => conn.run("UPDATE transactions SET amount = 9999999999999999.99 WHERE transaction_id = 'tx-0'"));
}
