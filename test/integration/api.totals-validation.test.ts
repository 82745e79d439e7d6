import { describe, expect, it } from 'vitest';
import { useCustomerApi, validationBody } from '../helpers/api.js';

const OP = 'aggregations_v2_bucket_totals_get';
const GROUP_BY = 'must be a comma list of bucket_l1, bucket_l2, month, each at most once';

describe('bucket totals: query validation', () => {
  const served = useCustomerApi({ fixtures: ['hand-computed.ndjson'] });

  it.each<[string, Record<string, string>]>([
    ['month_from=2024-01', { group_by: 'is required' }],
    ['group_by=', { group_by: GROUP_BY }],
    ['group_by=bucket_l3', { group_by: GROUP_BY }],
    ['group_by=bucket_l1,bucket_l1', { group_by: GROUP_BY }],
    ['group_by=bucket_l1&group_by=month', { group_by: GROUP_BY }],
    ['group_by=bucket_l1&month_from=2024-13', { month_from: 'must be a month formatted YYYY-MM' }],
    ['group_by=bucket_l1&month_to=2024-1', { month_to: 'must be a month formatted YYYY-MM' }],
    ['group_by=bucket_l1&month_from=2024-13&month_to=24-01', { month_from: 'must be a month formatted YYYY-MM', month_to: 'must be a month formatted YYYY-MM' }],
    ['group_by=bucket_l1&month_from=2024-03&month_to=2024-01', { month_from: 'must not be after month_to' }],
    ['group_by=bucket_l1&date_from=2024-03-01&date_to=2024-01-31', { date_from: 'must not be after date_to' }],
    ['group_by=bucket_l1&date_from=yesterday', { date_from: 'must be an RFC 3339 timestamp or a date formatted YYYY-MM-DD' }],
    ['group_by=bucket_l1&month_from=2024-01&date_from=2024-01-01', { date_from: 'cannot be combined with month_from' }],
    ['group_by=bucket_l1&month_from=2000-01&month_to=2024-01', { month_to: 'the range must span at most 120 months' }],
    ['group_by=bucket_l1&currency=gbp', { currency: 'must be a 3-letter currency code' }],
  ])('answers 400 in the error format of the interface for %s', async (query, errors) => {
    const res = await served.api.call('GET', `/aggregations/v2/buckets/core-dashboard/totals?${query}`, { headers: served.headers });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationBody(OP, errors));
  });

  it('accepts one end of the range and fills in the other', async () => {
    const res = await served.api.call<{ metadata: { date_from: string; date_to: string } }>('GET', '/aggregations/v2/buckets/core-dashboard/totals?group_by=month&month_to=2024-03', { headers: served.headers });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toMatchObject({ date_from: '2023-10-01T00:00:00Z', date_to: '2024-03-31T23:59:59Z' });
  });
});
