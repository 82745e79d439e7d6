import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildMonthlyTotals } from '../../jobs/rebuild-monthly-totals.js';
import { runJob } from '../../jobs/runner.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { ServiceUnderTest, deletionEvent, tempDbPath, transactionData, transactionEvent } from '../helpers/webhooks.js';

/**
 * The API keeps customers' answers in memory (src/api/cache). These tests
 * read every cached kind of answer twice (so the second comes from the
 * cache), change the data by each kind of write, and read again at once: the
 * answer must show the change. Without the announcement of that write, each
 * test gets the answer from before it.
 */
const CLIENT = 'client-rc';
const CUSTOMER = 'rc-1';
const MONTHS = 'month_from=2024-01&month_to=2024-06';

interface Money {
  value: string;
}
interface TotalsGroup {
  group_name: string;
  outgoing: { total: Money; transaction_count: number };
}
interface Seen {
  status: number;
  /** Outgoing total of the essentials bucket, from GET .../core-dashboard/totals. */
  essentials: string | undefined;
  /** Amounts of GET /financial/v2/transactions, newest first. */
  amounts: string[];
  /** data.assessment.expenditure.essential.overall_total of the report. */
  report: string | undefined;
}

describe('the read cache: a read right after a committed write sees it', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  let headers: Record<string, string>;

  const read = async (): Promise<Seen> => {
    const totals = await service.call<{ data: TotalsGroup[] }>('GET', `/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1&${MONTHS}`, { headers });
    const list = await service.call<{ data: { amount: Money }[] }>('GET', '/financial/v2/transactions?date_from=2024-01-01&date_to=2024-06-30', { headers });
    const report = await service.call<{ data: { assessment: { expenditure: { essential: { overall_total: Money } } } } }>(
      'GET',
      `/v1/affordability/report?${MONTHS}`,
      { headers },
    );
    return {
      status: Math.max(totals.status, list.status, report.status),
      essentials: totals.body.data?.find((g) => g.group_name === 'essentials')?.outgoing.total.value,
      amounts: list.body.data?.map((t) => t.amount.value) ?? [],
      report: report.body.data?.assessment.expenditure.essential.overall_total.value,
    };
  };

  /** Reads twice: the second answer comes from the cache, and must equal the first. */
  const readWarm = async (): Promise<Seen> => {
    const first = await read();
    expect(await read()).toEqual(first);
    return first;
  };

  beforeAll(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
    await service.ingest([transactionEvent(CLIENT, CUSTOMER, 'tx-1', { amount: '10.00' })]);
    headers = await service.auth(CLIENT, CUSTOMER);
  });
  afterAll(async () => {
    await service.close();
    db.cleanup();
  });

  it('after a file is ingested', async () => {
    expect(await readWarm()).toEqual({ status: 200, essentials: '10.00', amounts: ['10.00'], report: '10.00' });
    const file = path.join(path.dirname(db.dbPath), 'more.ndjson');
    writeFileSync(file, `${JSON.stringify(transactionEvent(CLIENT, CUSTOMER, 'tx-2', { amount: '5.00', dateTime: '2024-04-02T10:00:00Z' }))}\n`);
    await ingestFile(service.pipeline, file, { batchRows: 100 });
    expect(await read()).toEqual({ status: 200, essentials: '15.00', amounts: ['5.00', '10.00'], report: '15.00' });
  });

  it('after an HTTP ingestion is answered', async () => {
    await readWarm();
    const clientHeaders = await service.auth(CLIENT);
    const posted = await service.call('POST', '/v2/ingest/transactions', {
      headers: clientHeaders,
      body: [{ customer_id: CUSTOMER, transactions: [transactionData('tx-3', { amount: '2.50', dateTime: '2024-05-02T10:00:00Z' })] }],
    });
    expect(posted.status).toBe(202);
    expect(await read()).toEqual({ status: 200, essentials: '17.50', amounts: ['2.50', '5.00', '10.00'], report: '17.50' });
  });

  it('after the nightly rebuild of the monthly totals', async () => {
    await readWarm();
    // A change behind the API's back (drift, as the rebuild exists to repair): no write announces it, so the cache keeps the old answers...
    await service.store.write((conn) => conn.run("UPDATE transactions SET amount = amount + 100 WHERE transaction_id = 'tx-1'"));
    expect(await read()).toEqual({ status: 200, essentials: '17.50', amounts: ['2.50', '5.00', '10.00'], report: '17.50' });
    // ...until the rebuild, a job, has committed.
    await runJob(rebuildMonthlyTotals, { store: service.store, config: service.config, logger: service.store.logger }, 'cli');
    expect(await read()).toEqual({ status: 200, essentials: '117.50', amounts: ['2.50', '5.00', '110.00'], report: '117.50' });
  });

  it("after a bucket definition is replaced or deleted, for every customer of the client", async () => {
    const body = (categoryL2: string) => ({
      name: 'Food',
      categorisation_model: 'uk-v2',
      buckets: [{ bucket_l1: 'food', criteria: [{ bucket_l2: 'food', category_l1: 'food_and_drink', category_l2: categoryL2 }] }],
    });
    const clientHeaders = await service.auth(CLIENT);
    const created = await service.call<{ data: { bucket_id: string } }>('POST', '/aggregations/v2/buckets', { headers: clientHeaders, body: body('groceries') });
    const url = `/aggregations/v2/buckets/${created.body.data.bucket_id}/totals?group_by=bucket_l1&${MONTHS}`;
    const food = async () => {
      const res = await service.call<{ data: TotalsGroup[] }>('GET', url, { headers });
      return res.status === 200 ? res.body.data[0]?.outgoing.total.value : res.status;
    };
    expect(await food()).toBe('117.50');
    expect(await food()).toBe('117.50');
    const replaced = await service.call('PUT', `/aggregations/v2/buckets/${created.body.data.bucket_id}`, { headers: clientHeaders, body: body('coffee') });
    expect(replaced.status).toBe(204);
    expect(await food()).toBe('0.00');
    await service.call('DELETE', `/aggregations/v2/buckets/${created.body.data.bucket_id}`, { headers: clientHeaders });
    expect(await food()).toBe(404);
  });

  it('after the customer is deleted: every read is a 404', async () => {
    await readWarm();
    await service.ingest([deletionEvent(CLIENT, CUSTOMER)]);
    expect(await read()).toEqual({ status: 404, essentials: undefined, amounts: [], report: undefined });
  });
});
