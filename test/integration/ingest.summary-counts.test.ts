import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import type { IngestSummary } from '../../src/ingest/types.js';
import { tempStore } from '../helpers/store.js';
import { deletionEvent, paymentEvent, transactionEvent } from '../helpers/webhooks.js';

const CLIENT = 'client-sum';

/** read = inserted + updated + deleted + skipped + dead letters, and per type applied + skipped. */
function accountsForEveryEvent(s: IngestSummary): void {
  expect(s.inserted + s.updated + s.deleted + s.skipped + s.deadLetters).toBe(s.read);
  const byType = Object.values(s.byType).reduce((n, o) => n + o.applied + o.skipped, 0);
  expect(byType + s.deadLetters).toBe(s.read);
}

describe('the ingest summary', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
  });
  afterAll(async () => ctx.cleanup());

  it('counts every event of a file once, a deletion of an unknown customer included', async () => {
    const t1 = transactionEvent(CLIENT, 'cust-1', 't1', { occurredAt: '2024-03-01T00:00:00Z' });
    const t1Newer = transactionEvent(CLIENT, 'cust-1', 't1', { occurredAt: '2024-03-02T00:00:00Z', amount: '20.00' });
    const deleteNever = { ...transactionEvent(CLIENT, 'cust-1', 'never', { occurredAt: '2024-03-02T00:00:00Z' }), type: 'transaction.deleted', data: { transaction_id: 'never' } };
    const payment = paymentEvent(CLIENT, 'cust-1', 'single');
    const lines = [
      t1,
      t1Newer,
      t1, // a replay of an older version
      deleteNever, // a deletion of a record never seen
      transactionEvent(CLIENT, 'cust-2', 't9', { occurredAt: '2024-03-01T00:00:00Z' }),
      deletionEvent(CLIENT, 'cust-2'), // a customer that exists
      deletionEvent(CLIENT, 'cust-unknown'), // a customer never seen
      payment,
      payment, // a replay
      '{"not json',
    ].map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
    const file = path.join(ctx.dir, 'mixed.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);

    for (const batchRows of [1000, 1]) {
      const summary = await ingestFile(ctx.pipeline, file, { batchRows });
      accountsForEveryEvent(summary);
      if (batchRows !== 1000) {
        // The second reading is a replay: nothing changes, everything is still counted.
        expect(summary).toMatchObject({ read: 10, inserted: 0, updated: 0, deleted: 0, skipped: 9, deadLetters: 1 });
        continue;
      }
      expect(summary).toEqual({
        read: 10,
        inserted: 2, // t1, t9
        updated: 2, // t1's newer version, the payment status
        deleted: 1, // cust-2
        skipped: 4, // t1's replay, the deletion of `never`, the deletion of cust-unknown, the payment's replay
        deadLetters: 1,
        byType: {
          'transaction.upserted': { applied: 3, skipped: 1 },
          'transaction.deleted': { applied: 0, skipped: 1 },
          'customer.deleted': { applied: 1, skipped: 1 },
          'payment.status_updated': { applied: 1, skipped: 1 },
        },
      });
    }
  });
});
