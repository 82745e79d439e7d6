import { describe, expect, it } from 'vitest';
import { deleteCustomer } from '../../src/cli/customers.js';
import { verifySecret } from '../../src/domain/secrets.js';
import { rows, tempStore } from '../helpers/store.js';
import { transactionData } from '../helpers/webhooks.js';

const CLIENT = 'client-order';
const CUSTOMER = 'cust-order';
const SECRET = 'order-secret-0123456789';
const BEFORE = '2024-04-01T00:00:00Z';
const DELETED = '2024-05-01T00:00:00Z';
const AFTER = '2024-06-01T00:00:00Z';

const envelope = (id: string, type: string, occurredAt: string, data: object, customer = CUSTOMER) => ({
  event_id: id, type, occurred_at: occurredAt, client_id: CLIENT, customer_id: customer, customer_secret: SECRET, data,
});
const upsert = (id: string, occurredAt: string, transactionId: string, amount: string, customer = CUSTOMER) =>
  envelope(id, 'transaction.upserted', occurredAt, { ...transactionData(transactionId, { amount, dateTime: '2024-03-12T08:00:00Z' }), account_id: 'acc-1' }, customer);
const account = (id: string, occurredAt: string, accountId: string, balance: string) =>
  envelope(id, 'account.upserted', occurredAt, {
    account_id: accountId, currency: 'GBP', holder: { name: 'Sam', relationship: 'account_holder' }, account_name: 'Current account',
    account_type: 'current', usage_type: 'personal', provider: 'Monzo', identifiers: {},
    balances: [{ date: '2024-03-31T00:00:00Z', amount: { value: balance, currency: 'GBP' }, type: 'expected', credit_debit_indicator: 'credit' }],
  });
const application = (id: string, occurredAt: string, applicationId: string) =>
  envelope(id, 'application.upserted', occurredAt, { application_id: applicationId, creation_date: '2024-03-01T00:00:00Z', primary_applicant: { first_name: 'Sam', last_name: 'Order' }, review_status: 'pending' });

/**
 * A customer's records on both sides of their deletion (occurred_at 1 May):
 * the ones before it must go, the ones after it stay, whatever order they
 * arrive in. Another customer of the client is never touched.
 */
const EVENTS = [
  upsert('e01', BEFORE, 'tx-old', '10.00'),
  upsert('e02', AFTER, 'tx-new', '25.50'),
  upsert('e03', BEFORE, 'tx-both', '1.00'),
  upsert('e04', AFTER, 'tx-both', '7.25'),
  upsert('e05', BEFORE, 'tx-gone', '3.00'),
  envelope('e06', 'transaction.deleted', AFTER, { transaction_id: 'tx-gone' }),
  upsert('e07', BEFORE, 'tx-dropped', '4.00'),
  envelope('e08', 'transaction.deleted', BEFORE, { transaction_id: 'tx-dropped' }),
  account('e09', BEFORE, 'acc-old', '100.00'),
  account('e10', AFTER, 'acc-new', '200.00'),
  application('e11', BEFORE, 'app-old'),
  application('e12', AFTER, 'app-new'),
  upsert('e13', BEFORE, 'tx-other', '9.99', 'cust-other'),
  envelope('e14', 'customer.deleted', DELETED, {}),
];

/** Everything stored of the client's customers, in a fixed order, without the times the store set. */
async function state(store: Parameters<typeof rows>[0]) {
  const q = (sql: string) => rows(store, sql);
  return {
    transactions: await q(`SELECT customer_id, transaction_id, amount::VARCHAR AS amount, event_id FROM transactions ORDER BY ALL`),
    totals: await q(`SELECT customer_id, month::VARCHAR AS month, direction, total::VARCHAR AS total, transaction_count FROM monthly_category_totals ORDER BY ALL`),
    accounts: await q(`SELECT customer_id, account_id, event_id FROM accounts ORDER BY ALL`),
    balances: await q(`SELECT customer_id, account_id, amount::VARCHAR AS amount FROM balances ORDER BY ALL`),
    applications: await q(`SELECT customer_id, application_id, event_id FROM customer_applications ORDER BY ALL`),
    tombstones: await q(`SELECT record_type, customer_id, record_id, occurred_at::VARCHAR AS occurred_at, event_id FROM tombstones ORDER BY ALL`),
    customers: await q(`SELECT customer_id, hosted, secret_hash IS NOT NULL AS has_secret FROM customers ORDER BY ALL`),
  };
}

/** A permutation of the events from a seed (a small linear congruential generator, so that a failure can be replayed). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Ingests the events in this order, in batches of `size`, into a fresh store, and returns what it holds. */
async function ingested(order: readonly object[], size: number) {
  const ctx = await tempStore();
  try {
    for (let i = 0; i < order.length; i += size) {
      const batch = order.slice(i, i + size);
      const result = await ctx.pipeline.ingest(batch.map((e, j) => ({ raw: JSON.stringify(e), ref: { source: 'file', sourceRef: 'order.ndjson', lineNumber: i + j + 1 } })));
      expect(result.deadLetters).toEqual([]);
    }
    const held = await state(ctx.store);
    // When each transaction deletion was written is a log for synced copies, not state: a deletion that found nothing stored is not in it.
    const deletions = await rows(ctx.store, `SELECT customer_id, transaction_id FROM transaction_deletions ORDER BY ALL`);
    const [customer] = await rows<{ secret_hash: string }>(ctx.store, `SELECT secret_hash FROM customers WHERE customer_id = '${CUSTOMER}'`);
    return { held, deletions, secretKept: customer ? verifySecret(SECRET, customer.secret_hash) : undefined };
  } finally {
    await ctx.cleanup();
  }
}

describe("a customer's deletion against records newer than it", () => {

  it('keeps what is newer than the deletion and removes what is older, whatever the arrival order and batching', async () => {
    // In time order, one event a batch: the deletion comes after the records before it and before the records after it.
    const inTimeOrder = [...EVENTS].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at) || a.event_id.localeCompare(b.event_id));
    const expected = await ingested(inTimeOrder, 1);

    // Worked out by hand from the events above.
    expect(expected.held).toEqual({
      transactions: [
        { customer_id: 'cust-order', transaction_id: 'tx-both', amount: '7.25', event_id: 'e04' },
        { customer_id: 'cust-order', transaction_id: 'tx-new', amount: '25.50', event_id: 'e02' },
        { customer_id: 'cust-other', transaction_id: 'tx-other', amount: '9.99', event_id: 'e13' },
      ],
      totals: [
        { customer_id: 'cust-order', month: '2024-03-01', direction: 'debit', total: '32.75', transaction_count: 2 },
        { customer_id: 'cust-other', month: '2024-03-01', direction: 'debit', total: '9.99', transaction_count: 1 },
      ],
      accounts: [{ customer_id: 'cust-order', account_id: 'acc-new', event_id: 'e10' }],
      balances: [{ customer_id: 'cust-order', account_id: 'acc-new', amount: '200.00' }],
      applications: [{ customer_id: 'cust-order', application_id: 'app-new', event_id: 'e12' }],
      tombstones: [
        { record_type: 'customer', customer_id: 'cust-order', record_id: 'cust-order', occurred_at: '2024-05-01 00:00:00', event_id: 'e14' },
        { record_type: 'transaction', customer_id: 'cust-order', record_id: 'tx-gone', occurred_at: '2024-06-01 00:00:00', event_id: 'e06' },
      ],
      customers: [
        { customer_id: 'cust-order', hosted: false, has_secret: true },
        { customer_id: 'cust-other', hosted: false, has_secret: true },
      ],
    });
    expect(expected.secretKept).toBe(true);

    // The deletion last (everything newer was stored before it), in one batch and one event a batch; then the deletion first.
    const deletion = EVENTS.filter((e) => e.type === 'customer.deleted');
    const rest = EVENTS.filter((e) => e.type !== 'customer.deleted');
    // A deletion newer than the customer's keeps its log entry: here tx-gone was stored when its deletion came.
    const deletionLast = await ingested([...rest, ...deletion], 1);
    expect(deletionLast.deletions).toEqual([{ customer_id: 'cust-order', transaction_id: 'tx-gone' }]);
    const orders: [string, object[], number][] = [
      ['deletion last, one batch', [...rest, ...deletion], EVENTS.length],
      ['deletion last, one event a batch', [...rest, ...deletion], 1],
      ['deletion first, one batch', [...deletion, ...rest], EVENTS.length],
      ['newest first, batches of 3', [...inTimeOrder].reverse(), 3],
      ...[1, 2, 3, 4, 5, 6].map((seed): [string, object[], number] => [`shuffled with seed ${seed}`, shuffled(EVENTS, seed), 1 + (seed % 4)]),
    ];
    for (const [name, order, size] of orders) {
      const { held, secretKept } = await ingested(order, size);
      expect({ name, held, secretKept }).toEqual({ name, held: expected.held, secretKept: expected.secretKept });
    }
  });

  it('removes the customer whole when nothing of theirs is newer than the deletion, in either order', async () => {
    const older = EVENTS.filter((e) => e.occurred_at === BEFORE || e.type === 'customer.deleted');
    const deletionLast = await ingested(older, older.length);
    expect(deletionLast.held.customers).toEqual([{ customer_id: 'cust-other', hosted: false, has_secret: true }]);
    expect(deletionLast.held.transactions).toEqual([{ customer_id: 'cust-other', transaction_id: 'tx-other', amount: '9.99', event_id: 'e13' }]);
    expect(deletionLast.held.accounts).toEqual([]);
    expect(deletionLast.held.balances).toEqual([]);
    expect(deletionLast.held.applications).toEqual([]);
    // tx-dropped's deletion removed it while the customer was there; the log entry goes with the customer.
    expect(deletionLast.deletions).toEqual([]);
    expect(deletionLast.held.tombstones).toEqual([
      { record_type: 'customer', customer_id: 'cust-order', record_id: 'cust-order', occurred_at: '2024-05-01 00:00:00', event_id: 'e14' },
    ]);
    expect((await ingested([...older].reverse(), 2)).held).toEqual(deletionLast.held);
  });

  it("still checks the secret of a customer the deletion leaves, later in the same batch", async () => {
    const ctx = await tempStore();
    try {
      const stranger = { ...upsert('e20', AFTER, 'tx-stranger', '5.00'), customer_secret: 'another-secret-0123456789' };
      const events = [upsert('e02', AFTER, 'tx-new', '25.50'), EVENTS[EVENTS.length - 1], stranger];
      const result = await ctx.pipeline.ingest(events.map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file', sourceRef: 'secret.ndjson', lineNumber: i + 1 } })));
      expect(result.deadLetters.map((d) => [d.ref.lineNumber, d.reason])).toEqual([[3, "customer_secret: does not match the customer's secret"]]);
      expect(await rows(ctx.store, `SELECT transaction_id FROM transactions ORDER BY 1`)).toEqual([{ transaction_id: 'tx-new' }]);
    } finally {
      await ctx.cleanup();
    }
  });

  it("removes everything when the operator deletes (afford customers delete), a record stamped ahead of the clock included", async () => {
    const ctx = await tempStore();
    try {
      // Twenty days ahead: within what ingest takes (30), and newer than any deletion stamped with the clock.
      const ahead = new Date(Date.now() + 20 * 86_400_000).toISOString();
      const result = await ctx.pipeline.ingest([upsert('e30', ahead, 'tx-ahead', '1.00'), account('e31', ahead, 'acc-ahead', '5.00')]
        .map((e, i) => ({ raw: JSON.stringify(e), ref: { source: 'file', sourceRef: 'ahead.ndjson', lineNumber: i + 1 } })));
      expect(result.deadLetters).toEqual([]);
      expect(await deleteCustomer(ctx.pipeline, CUSTOMER, CLIENT)).toMatchObject({ deleted: true });
      const left = await state(ctx.store);
      expect({ transactions: left.transactions, accounts: left.accounts, customers: left.customers }).toEqual({ transactions: [], accounts: [], customers: [] });
    } finally {
      await ctx.cleanup();
    }
  });

  it('deletes a customer stored under an id no header can name (one stored before such ids were refused)', async () => {
    const ctx = await tempStore();
    try {
      await ctx.store.write((conn) => conn.run("INSERT INTO customers (client_id, customer_id, hosted, secret_hash) VALUES ('client-order', 'cust-space ', true, NULL)"));
      expect(await deleteCustomer(ctx.pipeline, 'cust-space ', CLIENT)).toMatchObject({ deleted: true });
      expect(await rows(ctx.store, "SELECT customer_id FROM customers")).toEqual([]);
    } finally {
      await ctx.cleanup();
    }
  });
});
