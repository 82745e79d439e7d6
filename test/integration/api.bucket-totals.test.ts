import { describe, expect, it } from 'vitest';
import { bucketTotalsResponse, type TotalsGroupOut } from '../../src/api/schemas/bucket-totals.schemas.js';
import { bucketCreatedResponse } from '../../src/api/schemas/buckets.schemas.js';
import { expectSchema, followLink, useCustomerApi } from '../helpers/api.js';

/**
 * cust-1 of client-a, GBP, computed by hand from test/fixtures/hand-computed.ndjson
 * and test/fixtures/api-customers.ndjson (not declined, latest versions only):
 *   2024-01  salary +2500.00 (t1); rent -950.00 (t2); groceries -50.00 (t3, updated) -32.10 (t4);
 *            own-account transfer -200.00 (t5) +200.00 (t6); t7 declined, not counted
 *   2024-02  groceries -0.01 (t9); t10 deleted; t20 is EUR (coffee -12.50)
 *   2024-03  salary +2500.00 (t8, moved from Feb); groceries -30.00 (t21, pending);
 *            gambling -5.55 (t22, at 23:59:59.500 on the last day)
 *   2024-04  salary +100.00 (t23, at 00:00:00 on the first day)
 */
type Flat = Record<string, [string, number, string, string, number, string, number]>;
// group_name -> [in total, in count, in average, out total, out count, out average, transaction_count]

const JAN_MAR_L1: Flat = {
  income: ['5000.00', 2, '1666.67', '0.00', 0, '0.00', 2],
  essentials: ['0.00', 0, '0.00', '1062.11', 5, '354.04', 5],
  non_essentials: ['0.00', 0, '0.00', '5.55', 1, '1.85', 1],
  general: ['0.00', 0, '0.00', '0.00', 0, '0.00', 0],
  transfers: ['200.00', 1, '66.67', '200.00', 1, '66.67', 2],
};
const FEB_APR_L1: Flat = {
  income: ['2600.00', 2, '866.67', '0.00', 0, '0.00', 2],
  essentials: ['0.00', 0, '0.00', '30.01', 2, '10.00', 2],
  non_essentials: ['0.00', 0, '0.00', '5.55', 1, '1.85', 1],
  general: ['0.00', 0, '0.00', '0.00', 0, '0.00', 0],
  transfers: ['0.00', 0, '0.00', '0.00', 0, '0.00', 0],
};
const JAN_MAR_MONTHS: Flat = {
  '2024-01': ['2700.00', 2, '2700.00', '1232.10', 4, '1232.10', 6],
  '2024-02': ['0.00', 0, '0.00', '0.01', 1, '0.01', 1],
  '2024-03': ['2500.00', 1, '2500.00', '35.55', 2, '35.55', 3],
};

function flat(groups: readonly TotalsGroupOut[]): Flat {
  return Object.fromEntries(
    groups.map((g) => [
      g.group_name,
      [g.incoming.total.value, g.incoming.transaction_count, g.incoming.monthly_average.value, g.outgoing.total.value, g.outgoing.transaction_count, g.outgoing.monthly_average.value, g.transaction_count],
    ]),
  );
}

const nonZero = (f: Flat): Flat => Object.fromEntries(Object.entries(f).filter(([, v]) => v[6] > 0));

/** The server's "now": mid-July 2024, so the default range is a fixed six months whatever the day the test runs. */
const NOW = '2024-07-15T12:00:00Z';

describe('bucket totals on the hand-computed fixture', () => {
  const served = useCustomerApi({ fixtures: ['hand-computed.ndjson', 'api-customers.ndjson'], clock: () => new Date(NOW) });

  const totals = async (query: string, bucketId = 'core-dashboard') => {
    const res = await served.api.call('GET', `/aggregations/v2/buckets/${bucketId}/totals?${query}`, { headers: served.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return expectSchema(bucketTotalsResponse, res.body);
  };

  const follow = (link: string, pageSize?: number) => followLink(served.api, link, served.headers, pageSize);


  it('group_by=bucket_l1 over 2024-01..2024-03', async () => {
    const body = await totals('group_by=bucket_l1&month_from=2024-01&month_to=2024-03');
    expect(body.operation_id).toBe('aggregations_v2_bucket_totals_get');
    expect(body.metadata).toEqual({ date_from: '2024-01-01T00:00:00Z', date_to: '2024-03-31T23:59:59Z', group_by: ['bucket_l1'], currency: 'GBP' });
    expect(flat(body.data)).toEqual(JAN_MAR_L1);
    expect(Object.keys(flat(body.data))).toEqual(['income', 'essentials', 'non_essentials', 'general', 'transfers']);
    expect(body.data.every((g) => g.subtotals === undefined)).toBe(true);
  });

  it('group_by=bucket_l1 over 2024-02..2024-04: other figures and other links', async () => {
    const a = await totals('group_by=bucket_l1&month_from=2024-01&month_to=2024-03');
    const b = await totals('group_by=bucket_l1&month_from=2024-02&month_to=2024-04');
    expect(flat(b.data)).toEqual(FEB_APR_L1);
    expect(b.metadata.date_from).toBe('2024-02-01T00:00:00Z');
    expect(b.metadata.date_to).toBe('2024-04-30T23:59:59Z');
    const income = (x: typeof a) => x.data.find((g) => g.group_name === 'income');
    expect(income(a)?._links.transactions).not.toBe(income(b)?._links.transactions);
    expect(income(a)?.incoming._links.transactions).toBe(
      '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=income&date_from=2024-01-01T00%3A00%3A00Z&date_to=2024-03-31T23%3A59%3A59Z&currency=GBP&credit_debit_indicator=credit',
    );
    expect(income(b)?._links.transactions).toBe(
      '/financial/v2/transactions?bucket_id=core-dashboard&bucket_l1=income&date_from=2024-02-01T00%3A00%3A00Z&date_to=2024-04-30T23%3A59%3A59Z&currency=GBP',
    );
    expect(await follow(income(a)?._links.transactions ?? '')).toEqual({ total: '5000.00', count: 2 });
    expect(await follow(income(b)?._links.transactions ?? '')).toEqual({ total: '2600.00', count: 2 });
  });

  it('date_from/date_to are widened to whole months', async () => {
    const body = await totals('group_by=bucket_l1&date_from=2024-01-15&date_to=2024-03-02T10:00:00Z');
    expect(body.metadata.date_from).toBe('2024-01-01T00:00:00Z');
    expect(body.metadata.date_to).toBe('2024-03-31T23:59:59Z');
    expect(flat(body.data)).toEqual(JAN_MAR_L1);
  });

  it('group_by=bucket_l1,bucket_l2: L2 subtotals of each L1', async () => {
    const body = await totals('group_by=bucket_l1,bucket_l2&month_from=2024-01&month_to=2024-03');
    expect(flat(body.data)).toEqual(JAN_MAR_L1);
    const sub = (name: string) => flat(body.data.find((g) => g.group_name === name)?.subtotals ?? []);
    expect(nonZero(sub('essentials'))).toEqual({
      rent: ['0.00', 0, '0.00', '950.00', 1, '316.67', 1],
      groceries: ['0.00', 0, '0.00', '112.11', 4, '37.37', 4],
    });
    expect(Object.keys(sub('essentials')).slice(0, 4)).toEqual(['mortgage', 'rent', 'savings', 'groceries']);
    expect(nonZero(sub('income'))).toEqual({ salary: ['5000.00', 2, '1666.67', '0.00', 0, '0.00', 2] });
    expect(nonZero(sub('transfers'))).toEqual({ between_own_accounts: ['200.00', 1, '66.67', '200.00', 1, '66.67', 2] });
    expect(body.data.flatMap((g) => g.subtotals ?? []).every((s) => s.group_type === 'bucket_l2' && s.subtotals === undefined)).toBe(true);
  });

  it('group_by=bucket_l1,month: month subtotals whose average equals their total', async () => {
    const body = await totals('group_by=bucket_l1,month&month_from=2024-01&month_to=2024-03');
    const sub = (name: string) => flat(body.data.find((g) => g.group_name === name)?.subtotals ?? []);
    expect(sub('essentials')).toEqual({
      '2024-01': ['0.00', 0, '0.00', '1032.10', 3, '1032.10', 3],
      '2024-02': ['0.00', 0, '0.00', '0.01', 1, '0.01', 1],
      '2024-03': ['0.00', 0, '0.00', '30.00', 1, '30.00', 1],
    });
    expect(sub('income')).toEqual({
      '2024-01': ['2500.00', 1, '2500.00', '0.00', 0, '0.00', 1],
      '2024-02': ['0.00', 0, '0.00', '0.00', 0, '0.00', 0],
      '2024-03': ['2500.00', 1, '2500.00', '0.00', 0, '0.00', 1],
    });
    const march = body.data.find((g) => g.group_name === 'non_essentials')?.subtotals?.find((s) => s.group_name === '2024-03');
    expect(march?.group_type).toBe('month');
    expect(march?.outgoing._links.transactions).toContain('date_from=2024-03-01T00%3A00%3A00Z&date_to=2024-03-31T23%3A59%3A59Z');
    // The 23:59:59.500 transaction of the last day is in the total and behind the link.
    expect(await follow(march?.outgoing._links.transactions ?? '')).toEqual({ total: '5.55', count: 1 });
  });

  it('group_by=bucket_l2 and group_by=month as first levels', async () => {
    const l2 = await totals('group_by=bucket_l2&month_from=2024-01&month_to=2024-03');
    expect(nonZero(flat(l2.data))).toEqual({
      salary: ['5000.00', 2, '1666.67', '0.00', 0, '0.00', 2],
      rent: ['0.00', 0, '0.00', '950.00', 1, '316.67', 1],
      groceries: ['0.00', 0, '0.00', '112.11', 4, '37.37', 4],
      gambling: ['0.00', 0, '0.00', '5.55', 1, '1.85', 1],
      between_own_accounts: ['200.00', 1, '66.67', '200.00', 1, '66.67', 2],
    });
    const months = await totals('group_by=month&month_from=2024-01&month_to=2024-03');
    expect(flat(months.data)).toEqual(JAN_MAR_MONTHS);
    const nested = await totals('group_by=month,bucket_l1&month_from=2024-01&month_to=2024-03');
    expect(flat(nested.data)).toEqual(JAN_MAR_MONTHS);
    expect(nonZero(flat(nested.data.find((g) => g.group_name === '2024-03')?.subtotals ?? []))).toEqual({
      income: ['2500.00', 1, '2500.00', '0.00', 0, '0.00', 1],
      essentials: ['0.00', 0, '0.00', '30.00', 1, '30.00', 1],
      non_essentials: ['0.00', 0, '0.00', '5.55', 1, '5.55', 1],
    });
    const three = await totals('group_by=bucket_l1,month,bucket_l2&month_from=2024-01&month_to=2024-03');
    const jan = three.data.find((g) => g.group_name === 'essentials')?.subtotals?.find((s) => s.group_name === '2024-01');
    expect(nonZero(flat(jan?.subtotals ?? []))).toEqual({
      rent: ['0.00', 0, '0.00', '950.00', 1, '950.00', 1],
      groceries: ['0.00', 0, '0.00', '82.10', 2, '82.10', 2],
    });
  });

  it('every link of every group and direction gives exactly its total and count', async () => {
    const body = await totals('group_by=bucket_l1,month&month_from=2024-01&month_to=2024-04');
    const groups = body.data.flatMap((g) => [g, ...(g.subtotals ?? [])]);
    for (const g of groups) {
      const both = await follow(g._links.transactions, 2);
      expect(both.count, g._links.transactions).toBe(g.transaction_count);
      for (const d of [g.incoming, g.outgoing]) {
        expect(await follow(d._links.transactions, 2), d._links.transactions).toEqual({ total: d.total.value, count: d.transaction_count });
      }
    }
  });

  it('filters by currency (default GBP)', async () => {
    const eur = await totals('group_by=bucket_l1&month_from=2024-01&month_to=2024-03&currency=EUR');
    expect(eur.metadata.currency).toBe('EUR');
    expect(nonZero(flat(eur.data))).toEqual({ non_essentials: ['0.00', 0, '0.00', '12.50', 1, '4.17', 1] });
    const g = eur.data.find((x) => x.group_name === 'non_essentials');
    expect(g?.outgoing.total).toEqual({ value: '12.50', currency: 'EUR' });
    expect(await follow(g?._links.transactions ?? '')).toEqual({ total: '12.50', count: 1 });
  });

  it("totals a client's own definition through its criteria", async () => {
    const definition = {
      name: 'food-and-fun',
      categorisation_model: 'uk-v2',
      buckets: [
        { bucket_l1: 'food', criteria: [{ bucket_l2: 'shops', category_l1: 'food_and_drink', category_l2: 'groceries' }] },
        { bucket_l1: 'fun', criteria: [{ bucket_l2: 'bets', category_l1: 'entertainment', category_l2: 'gambling' }, { bucket_l2: 'cafes', category_l1: 'food_and_drink', category_l2: 'coffee' }] },
      ],
    };
    const created = await served.api.call('POST', '/aggregations/v2/buckets', { headers: served.headers, body: definition });
    const id = expectSchema(bucketCreatedResponse, created.body).data.bucket_id;
    const body = await totals('group_by=bucket_l1,bucket_l2&month_from=2024-01&month_to=2024-03', id);
    expect(flat(body.data)).toEqual({
      food: ['0.00', 0, '0.00', '112.11', 4, '37.37', 4],
      fun: ['0.00', 0, '0.00', '5.55', 1, '1.85', 1],
    });
    expect(Object.keys(flat(body.data.find((g) => g.group_name === 'fun')?.subtotals ?? []))).toEqual(['bets', 'cafes']);
    expect(await follow(body.data[0]?._links.transactions ?? '', 3)).toEqual({ total: '112.11', count: 4 });
  });

  it('defaults to the last 6 complete months', async () => {
    const body = await totals('group_by=month');
    expect(body.data).toHaveLength(6);
    // NOW is in July 2024: June is the last complete month, January the first of six.
    expect(body.data.map((g) => g.group_name)).toEqual(['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06']);
    expect(body.metadata.date_from.startsWith('2024-01-01')).toBe(true);
    expect(body.metadata.date_to.startsWith('2024-06-30')).toBe(true);
  });
});
