import { afterEach, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../src/app/pipeline.js';
import { onEveryCommit } from '../../src/ingest/pipeline.js';
import type { BatchResult } from '../../src/ingest/types.js';
import { loggedLines } from '../helpers/log-lines.js';
import { rows, tempStore } from '../helpers/store.js';
import { upsertItem } from '../helpers/transaction-events.js';

const items = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => upsertItem({ eventId: `ev-${from + i}`, customer: `cust-${(from + i) % 7}`, tx: `tx-${from + i}`, amount: '1.00', occurred: '2024-04-03T10:00:00Z' }));

describe('listeners of committed batches', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('cannot make a committed batch look failed: one that throws is logged, the batch is written once and the others still hear of it', async () => {
    const logged = loggedLines('error');
    const t = await tempStore();
    cleanup = t.cleanup;
    const pipeline = buildPipeline(t.store, logged.logger);
    const heard: number[] = [];
    onEveryCommit(t.store, () => {
      throw new Error('a listener that fails');
    });
    onEveryCommit(t.store, (result: BatchResult) => heard.push(result.inserted));
    // A batch validated in JavaScript (small), and one taken by the fast path (2,000 events or more).
    const small = await pipeline.ingest(items(10));
    const large = await pipeline.ingest(items(2500, 10));
    expect([small.inserted, large.inserted]).toEqual([10, 2500]);
    expect(heard).toEqual([10, 2500]);
    expect(await rows(t.store, 'SELECT count(*)::INTEGER AS n, count(DISTINCT transaction_id)::INTEGER AS d FROM transactions')).toEqual([{ n: 2510, d: 2510 }]);
    expect(logged.lines.filter((l) => l.msg === 'a listener of committed batches failed; the batch is committed all the same')).toHaveLength(2);
  });
});
