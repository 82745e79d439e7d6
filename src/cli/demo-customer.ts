import { queryFile } from '../db/script.js';
import type { Store } from '../db/store.js';
import { monthStartDate, type MonthRange } from '../domain/months.js';

/** The hosted customer with the most transactions in the range: the one the demo shows. */
export async function busiestHostedCustomer(store: Store, range: MonthRange): Promise<{ customerId: string; clientId: string } | undefined> {
  const rows = await store.read((conn) =>
    queryFile<{ customer_id: string; client_id: string }>(conn, 'queries/demo/busiest-hosted-customer', {
      month_from: monthStartDate(range.from),
      month_to: monthStartDate(range.to),
    }),
  );
  return rows[0] ? { customerId: rows[0].customer_id, clientId: rows[0].client_id } : undefined;
}
