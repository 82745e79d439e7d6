import { describe, expect, it } from 'vitest';
import { useCustomerApi, validationBody } from '../helpers/api.js';
import { REFERENCE, expectReferenceShape } from '../helpers/reference-shapes.js';

const OP = 'v1_customer_application_get';

describe('GET /core/v1/customer-applications/{application_id}, as a client of the reference API reads it', () => {
  // 13 July 2024, so that the periods can be worked out by hand.
  const served = useCustomerApi({ fixtures: ['api-customers.ndjson'], clock: () => new Date('2024-07-13T15:00:00Z') });
  const get = (id: string, query = '') => served.api.call('GET', `/core/v1/customer-applications/${id}${query}`, { headers: served.headers });

  it('has every field the reference requires, none of them null where its types allow no null', async () => {
    // app-1 was stored with secondary_applicants null and no deletion date.
    const res = await get('app-1');
    expect(res.status).toBe(200);
    const body = expectReferenceShape(REFERENCE.customerApplication, res.body);
    expect(body.operation_id).toBe(OP);
    expect(body.data).toMatchObject({ secondary_applicants: [], deletion_date: '', financial_data_consent: 'one_time' });
  });

  it('gives metadata values as strings, as the reference types them, whatever the event held', async () => {
    const event = {
      event_id: 'app-meta-1', type: 'application.upserted', occurred_at: '2024-02-01T00:00:00Z', client_id: 'client-a', customer_id: 'cust-1',
      data: { application_id: 'app-meta', creation_date: '2024-02-01T00:00:00Z', primary_applicant: { first_name: 'Alex', last_name: 'Smith' }, metadata: { loan_product_code: 'cc-1', score: 7, flags: ['a'] } },
    };
    await served.api.pipeline.ingest([{ raw: JSON.stringify(event), ref: { source: 'file', sourceRef: 'app-meta', lineNumber: 1 } }]);
    const body = expectReferenceShape(REFERENCE.customerApplication, (await get('app-meta')).body);
    expect(body.data.metadata).toEqual({ loan_product_code: 'cc-1', score: '7', flags: '["a"]' });
  });

  it('lists the default periods (1, 3, 6 and 12 whole months to the last complete month) in UTC', async () => {
    const body = expectReferenceShape(REFERENCE.customerApplication, (await get('app-1')).body);
    expect(body.metadata).toEqual({
      timezone: 'Etc/UTC',
      date_range_end: 'latest_calendar_month',
      date_ranges: [
        { from: '2024-06-01T00:00:00Z', to: '2024-06-30T23:59:59Z', duration: 'P1M' },
        { from: '2024-04-01T00:00:00Z', to: '2024-06-30T23:59:59Z', duration: 'P3M' },
        { from: '2024-01-01T00:00:00Z', to: '2024-06-30T23:59:59Z', duration: 'P6M' },
        { from: '2023-07-01T00:00:00Z', to: '2024-06-30T23:59:59Z', duration: 'P12M' },
      ],
    });
  });

  it('ends the periods today with date_range_end=latest_date, and takes durations in days', async () => {
    const body = expectReferenceShape(REFERENCE.customerApplication, (await get('app-1', '?date_range_end=latest_date&date_range_durations=P1M,P30D&timezone=UTC')).body);
    expect(body.metadata).toEqual({
      timezone: 'Etc/UTC',
      date_range_end: 'latest_date',
      date_ranges: [
        { from: '2024-06-14T00:00:00Z', to: '2024-07-13T23:59:59Z', duration: 'P1M' },
        { from: '2024-06-14T00:00:00Z', to: '2024-07-13T23:59:59Z', duration: 'P30D' },
      ],
    });
  });

  it.each([
    ['?timezone=Europe/London', { timezone: 'must be Etc/UTC: afford counts whole UTC calendar months' }],
    ['?timezone=Mars/Olympus', { timezone: 'must be an IANA time zone name, such as Etc/UTC' }],
    ['?date_range_end=yesterday', { date_range_end: 'must be one of: latest_calendar_month, latest_date' }],
    ['?date_range_durations=P0M', { date_range_durations: 'must be a comma list of at most 12 durations PnM (n up to 120) or PnD (n up to 3660)' }],
  ])('answers 400 for %s', async (query, errors) => {
    const res = await get('app-1', query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationBody(OP, errors));
  });
});
