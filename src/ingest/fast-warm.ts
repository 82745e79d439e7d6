import { fastRowsOfBytes } from './fast-rows.js';

/**
 * Plain transaction events the fast path's check takes, made up here, for
 * its thread to check before a batch comes (warmUp): V8 compiles a
 * function well only once it has run it many times, and checked cold, the
 * first batch of a file took some 40 µs a line against some 5 once warm,
 * while DuckDB waited for it. The events vary in every way the check
 * branches on: customers, directions, statuses, the optional fields, a
 * deletion now and then.
 */
export function warmLines(count: number, from = 0): Uint8Array[] {
  const encoder = new TextEncoder();
  const lines: Uint8Array[] = [];
  for (let i = from; i < from + count; i++) {
    const customer = `cust-warm-${i % 37}`;
    const day = String(1 + (i % 28)).padStart(2, '0');
    const at = `2024-0${1 + (i % 9)}-${day}T${String(i % 24).padStart(2, '0')}:15:22Z`;
    const envelope = `"event_id":"ev-warm-${i}","occurred_at":"${at}","client_id":"client-warm","customer_id":"${customer}"`;
    if (i % 23 === 22) {
      lines.push(encoder.encode(`{${envelope},"type":"transaction.deleted","data":{"transaction_id":"tx-warm-${i - 1}"}}`));
      continue;
    }
    const fields = [
      `"transaction_id":"tx-warm-${i}"`,
      `"account_id":"acc-warm-${i % 3}"`,
      `"provider":"Warm Bank"`,
      `"description":"WARM ${i % 101}"`,
      `"credit_debit_indicator":"${i % 4 === 0 ? 'credit' : 'debit'}"`,
      `"amount":{"value":"${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}","currency":"GBP"}`,
      `"date_time":"${at}"`,
      `"status":"${i % 11 === 0 ? 'pending' : 'booked'}"`,
      `"enrichments":{"categories":{"l1":{"slug":"food_and_drink","confidence":"0.95"},"l2":{"slug":"groceries","confidence":"0.9"}}${
        i % 3 === 0 ? `,"regularity":{"frequency":"monthly","predicted_date_times":["${at}"],"group_label":"warm-${i % 5}"}` : ''
      }}`,
      `"tags":[${i % 2 === 0 ? '"regular-transaction","subscription"' : ''}]`,
    ];
    if (i % 5 === 0) fields.push(`"counterparty":{"name":"Warm Payee","identifier":"04-00-0${i % 10} 1234567${i % 10}"}`);
    if (i % 7 === 0) fields.push(`"running_balance":{"value":"-${i % 500}.37","currency":"GBP"}`);
    if (i % 13 === 0) fields.push(`"posted_date_time":"${at}"`, `"value_date_time":"${at}"`, `"merchant_category_code":"5411"`);
    lines.push(encoder.encode(`{${envelope},"type":"transaction.upserted","data":{${fields.join(',')}}}`));
  }
  return lines;
}

/** Lines the thread checks as it starts, in pieces as a batch's come. */
const WARM_LINES = 3000;
const WARM_PIECE = 500;

/**
 * Checks made-up events as a batch's are checked, and throws the rows away
 * (see warmLines): a piece at a time, made as it is checked, so that what
 * it leaves is young garbage: the warm-up adds some 9 MiB to the process
 * (compiled code, a larger heap), where with all 3,000 made first it added
 * 12 to 14.
 */
export function warmUp(): void {
  for (let base = 0; base < WARM_LINES; base += WARM_PIECE) fastRowsOfBytes(warmLines(WARM_PIECE, base), base);
}
