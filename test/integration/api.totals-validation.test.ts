import { describe, expect, it } from 'vitest';
import { OP_AFFORDABILITY_REPORT_GET } from '../../src/api/schemas/affordability.schemas.js';
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
    // Years 0 to 99 were taken for 1900 to 1999 by the month arithmetic: now refused, as are years past 9998.
    ['group_by=month&month_from=0001-01&month_to=0001-03', { month_from: 'must be in the years 1000 to 9998', month_to: 'must be in the years 1000 to 9998' }],
    ['group_by=month&month_to=0050-03', { month_to: 'must be in the years 1000 to 9998' }],
    ['group_by=month&month_from=9999-01', { month_from: 'must be in the years 1000 to 9998' }],
    ['group_by=bucket_l1&date_from=2024-03-01&date_to=2024-01-31', { date_from: 'must not be after date_to' }],
    ['group_by=bucket_l1&date_from=yesterday', { date_from: 'must be an RFC 3339 timestamp or a date formatted YYYY-MM-DD' }],
    // 24:00 was rolled over into the next day by the date parser, and a range ending 31 January ran into February.
    ['group_by=month&date_from=2024-01-01&date_to=2024-01-31T24:00:00Z', { date_to: 'must be an RFC 3339 timestamp or a date formatted YYYY-MM-DD' }],
    ['group_by=bucket_l1&month_from=2024-01&date_from=2024-01-01', { date_from: 'cannot be combined with month_from' }],
    ['group_by=bucket_l1&month_from=2000-01&month_to=2024-01', { month_to: 'the range must span at most 120 months' }],
    ['group_by=bucket_l1&currency=gbp', { currency: 'must be a 3-letter currency code' }],
    // An offset would move the instant into another UTC month and widen the range by a month nobody asked for.
    ['group_by=bucket_l1&date_from=2024-02-01T00:00:00%2B01:00&date_to=2024-02-29', { date_from: 'must be in UTC (Z or +00:00): months are UTC calendar months' }],
    ['group_by=bucket_l1&date_from=2024-02-01&date_to=2024-02-29T23:59:59-01:00', { date_to: 'must be in UTC (Z or +00:00): months are UTC calendar months' }],
    ['group_by=bucket_l1&timezone=Europe/London', { timezone: 'must be Etc/UTC: afford counts whole UTC calendar months' }],
    ['group_by=bucket_l1&timezone=Not/A_Zone', { timezone: 'must be an IANA time zone name, such as Etc/UTC' }],
  ])('answers 400 in the error format of the interface for %s', async (query, errors) => {
    const res = await served.api.call('GET', `/aggregations/v2/buckets/core-dashboard/totals?${query}`, { headers: served.headers });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationBody(OP, errors));
  });

  it('takes the reference’s timezone parameter for UTC, and offsets of zero, without moving the range', async () => {
    for (const query of [
      'group_by=month&date_from=2024-02-01T00:00:00%2B00:00&date_to=2024-02-29T23:59:59Z&timezone=Etc/UTC',
      'group_by=month&month_from=2024-02&month_to=2024-02&timezone=UTC',
      'group_by=month&date_from=2024-02-01&date_to=2024-02-29',
    ]) {
      const res = await served.api.call<{ metadata: { date_from: string; date_to: string }; data: unknown[] }>('GET', `/aggregations/v2/buckets/core-dashboard/totals?${query}`, { headers: served.headers });
      expect(res.status, query).toBe(200);
      expect(res.body.metadata).toMatchObject({ date_from: '2024-02-01T00:00:00Z', date_to: '2024-02-29T23:59:59Z' });
      expect(res.body.data).toHaveLength(1);
    }
  });

  it('refuses offsets and other zones on the category totals and the report too', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['/aggregations/v2/totals/categories?from=2024-02-01T00:00:00%2B01:00', 'v2_category_totals_get', { from: 'must be in UTC (Z or +00:00): months are UTC calendar months' }],
      ['/v1/affordability/report?month_from=2024-01&month_to=2024-03&timezone=Europe/London', OP_AFFORDABILITY_REPORT_GET, { timezone: 'must be Etc/UTC: afford counts whole UTC calendar months' }],
    ];
    for (const [path, op, errors] of cases) {
      const res = await served.api.call('GET', path, { headers: served.headers });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual(validationBody(op, errors));
    }
    const utc = await served.api.call('GET', '/v1/affordability/report?month_from=2024-01&month_to=2024-03&timezone=Etc/UTC', { headers: served.headers });
    expect(utc.status).toBe(200);
  });

  it('accepts one end of the range and fills in the other', async () => {
    const res = await served.api.call<{ metadata: { date_from: string; date_to: string } }>('GET', '/aggregations/v2/buckets/core-dashboard/totals?group_by=month&month_to=2024-03', { headers: served.headers });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toMatchObject({ date_from: '2023-10-01T00:00:00Z', date_to: '2024-03-31T23:59:59Z' });
  });
});
