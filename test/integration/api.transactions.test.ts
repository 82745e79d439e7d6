import { describe, expect, it } from 'vitest';
import { transactionsResponse } from '../../src/api/schemas/transactions.schemas.js';
import { GENERIC_404, expectSchema, validationBody, useCustomerApi } from '../helpers/api.js';

const OP = 'financial_v2_transactions_get';

describe('GET /financial/v2/transactions', () => {
  const served = useCustomerApi({ fixtures: ['hand-computed.ndjson', 'api-customers.ndjson'] });

  const list = async (query = '') => {
    const res = await served.api.call('GET', `/financial/v2/transactions${query}`, { headers: served.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return expectSchema(transactionsResponse, res.body);
  };
  const ids = async (query = '') => (await list(query)).data.map((t) => t.transaction_id);
  const invalid = async (query: string) => {
    const res = await served.api.call('GET', `/financial/v2/transactions${query}`, { headers: served.headers });
    expect(res.status).toBe(400);
    return res.body as { operation_id: string; code_id: string; errors: Record<string, string> };
  };


  it('lists the customer’s transactions newest first, declined left out', async () => {
    const body = await list();
    expect(body.operation_id).toBe(OP);
    expect(body.data.map((t) => t.transaction_id)).toEqual(['t23', 't22', 't21', 't8', 't20', 't9', 't1', 't7', 't6', 't5', 't4', 't3', 't2'].filter((t) => t !== 't7'));
    expect(body.metadata).toEqual({ results: 12 });
  });

  it('pages by keyset with an opaque token, page_size from 1 to 200', async () => {
    const all = await ids();
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const body = await list(`?page_size=5${token ? `&page_token=${token}` : ''}`);
      seen.push(...body.data.map((t) => t.transaction_id));
      expect(body.metadata.results).toBe(body.data.length);
      token = body.metadata.next_page_token;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
    // t5 and t6 share date_time: the transaction_id breaks the tie, across a page boundary too.
    const one = await list('?page_size=1');
    expect(one.data).toHaveLength(1);
    expect((await list('?page_size=200')).data).toHaveLength(12);
  });

  it('breaks ties on transaction_id across pages', async () => {
    const byOne: string[] = [];
    let token: string | undefined;
    do {
      const body = await list(`?page_size=1&date_from=2024-01-15&date_to=2024-01-15${token ? `&page_token=${token}` : ''}`);
      byOne.push(...body.data.map((t) => t.transaction_id));
      token = body.metadata.next_page_token;
    } while (token);
    expect(byOne).toEqual(['t6', 't5']);
  });

  it.each([
    ['?page_size=0', { page_size: 'must be a whole number from 1 to 200' }],
    ['?page_size=201', { page_size: 'must be a whole number from 1 to 200' }],
    ['?page_size=ten', { page_size: 'must be a whole number from 1 to 200' }],
    ['?page_size=-1', { page_size: 'must be a whole number from 1 to 200' }],
    ['?page_size=10&page_size=20', { page_size: 'must be given once' }],
    ['?page_token=garbage', { page_token: 'is not a valid page token' }],
    // Well-formed tokens naming an instant that does not exist (a made-up token): 400, not a failure in SQL.
    ['?page_token=eyJ2IjoxLCJkIjoiMjAyNC0wMi0zMCAwMDowMDowMCIsImkiOiJ4In0', { page_token: 'is not a valid page token' }],
    ['?page_token=eyJ2IjoxLCJkIjoiMjAyNC0wMS0wMSAyNTo2MTowMCIsImkiOiJ4In0', { page_token: 'is not a valid page token' }],
    // Past the years whose next day, second or zone offset can still be written: 400, not a failure in SQL.
    ['?date_to=9999-12-31', { date_to: 'must be in the years 1000 to 9998' }],
    ['?date_from=9999-12-31T23:59:59-23:59', { date_from: 'must be in the years 1000 to 9998' }],
    ['?updated_after=9999-12-31T23:59:59-01:00', { updated_after: 'must be in the years 1000 to 9998' }],
    ['?date_from=0099-01-01', { date_from: 'must be in the years 1000 to 9998' }],
    ['?date_from=2024-13-01', { date_from: 'must be an RFC 3339 timestamp or a date formatted YYYY-MM-DD' }],
    ['?date_from=2024-02-30', { date_from: 'must be an RFC 3339 timestamp or a date formatted YYYY-MM-DD' }],
    ['?date_from=2024-03-01&date_to=2024-02-01', { date_from: 'must not be after date_to' }],
    ['?credit_debit_indicator=both', { credit_debit_indicator: 'must be one of: credit, debit' }],
    ['?status=settled', { status: 'must be one of: booked, pending, declined' }],
    ['?bucket_l1=income', { bucket_id: 'is required with bucket_l1 or bucket_l2' }],
    ['?currency=pounds', { currency: 'must be a 3-letter currency code' }],
  ])('answers 400 failed_validation for %s', async (query, errors) => {
    const body = await invalid(query);
    expect(body).toEqual(validationBody(OP, errors));
  });

  it('filters by date range (RFC 3339 or whole UTC days), inclusive of the last second', async () => {
    expect(await ids('?date_from=2024-03-01&date_to=2024-03-31')).toEqual(['t22', 't21', 't8']);
    expect(await ids('?date_from=2024-03-01T00:00:00Z&date_to=2024-03-31T23:59:59Z')).toEqual(['t22', 't21', 't8']);
    expect(await ids('?date_from=2024-04-01T00:00:00Z')).toEqual(['t23']);
    expect(await ids('?date_to=2024-01-06T11:00:00Z')).toEqual(['t3', 't2']);
  });

  it('filters by account, category, direction, currency and status', async () => {
    expect(await ids('?account_id=acc-2')).toEqual(['t6']);
    expect(await ids('?category_l1=food_and_drink&category_l2=groceries')).toEqual(['t21', 't9', 't4', 't3']);
    expect(await ids('?credit_debit_indicator=credit')).toEqual(['t23', 't8', 't1', 't6']);
    expect(await ids('?currency=EUR')).toEqual(['t20']);
    expect(await ids('?status=declined')).toEqual(['t7']);
    expect(await ids('?status=pending')).toEqual(['t21']);
  });

  it('filters by tags, include_tags[] and exclude_tags[]', async () => {
    expect(await ids('?include_tags[]=online')).toEqual(['t21']);
    expect(await ids('?include_tags[]=salary&include_tags[]=online')).toEqual(['t23', 't21']);
    expect(await ids('?include_tags=salary,online')).toEqual(['t23', 't21']);
    expect(await ids('?exclude_tags[]=online&date_from=2024-03-01')).toEqual(['t23', 't22', 't8']);
  });

  it('filters by bucket: bucket_id, bucket_l1 and bucket_l2', async () => {
    expect(await ids('?bucket_id=core-dashboard&bucket_l1=essentials&bucket_l2=groceries')).toEqual(['t21', 't9', 't4', 't3']);
    expect(await ids('?bucket_id=core-dashboard&bucket_l1=transfers')).toEqual(['t6', 't5']);
    expect(await ids('?bucket_id=core-dashboard&bucket_l2=gambling')).toEqual(['t22']);
    const unknown = await served.api.call('GET', '/financial/v2/transactions?bucket_id=no-such-bucket', { headers: served.headers });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(GENERIC_404);
  });

  it('filters by updated_after', async () => {
    expect(await ids('?updated_after=2000-01-01T00:00:00Z')).toHaveLength(12);
    expect(await ids('?updated_after=2999-01-01')).toEqual([]);
  });

  it('returns the transaction shape, with the optional fields when present', async () => {
    const [t22] = (await list('?bucket_id=core-dashboard&bucket_l2=gambling')).data;
    expect(t22).toEqual({
      transaction_id: 't22',
      account_id: 'acc-1',
      provider: 'Monzo',
      description: 'LATE NIGHT BET',
      credit_debit_indicator: 'debit',
      amount: { value: '5.55', currency: 'GBP' },
      date_time: '2024-03-31T23:59:59.500Z',
      suggested_description: 'Bet Co',
      status: 'booked',
      enrichments: {
        categories: { l1: { slug: 'entertainment', confidence: '0.90' }, l2: { slug: 'gambling', confidence: '0.85' } },
        regularity: { frequency: 'weekly', predicted_date_times: ['2024-04-07T23:00:00.000Z'], group_label: 'bets' },
        merchant: { display_name: 'Bet Co' },
      },
      tags: [],
      merchant_category_code: '7995',
      counterparty: { name: 'Bet Co', identifier: 'BET-1' },
      running_balance: { value: '-12.34', currency: 'GBP' },
    });
  });
});
