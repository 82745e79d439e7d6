import { describe, expect, it } from 'vitest';
import { categoryTotalsResponse, type CurrencyTotalOut } from '../../src/api/schemas/category-totals.schemas.js';
import { expectSchema, validationBody, useCustomerApi } from '../helpers/api.js';

const OP = 'v2_category_totals_get';

/** [currency, amount, count, monthly_average, variance, monthly amounts] */
const brief = (totals: readonly CurrencyTotalOut[]) =>
  totals.map((t) => [t.amount.currency, t.amount.value, t.transaction_count, t.monthly_average.value, t.variance, t.monthly.map((m) => m.amount.value)]);

describe('GET /aggregations/v2/totals/categories (hand-computed, cust-1)', () => {
  const served = useCustomerApi({ fixtures: ['hand-computed.ndjson', 'api-customers.ndjson'] });
  const get = async (query: string) => {
    const res = await served.api.call('GET', `/aggregations/v2/totals/categories?${query}`, { headers: served.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return expectSchema(categoryTotalsResponse, res.body);
  };


  it('gives per-category, per-currency totals with monthly figures, average and population variance', async () => {
    const body = await get('from=2024-01&to=2024-03');
    expect(body.operation_id).toBe(OP);
    expect(body.data.map((e) => e.name)).toEqual(['income', 'mortgage_and_rent', 'food_and_drink', 'entertainment', 'transfers']);
    const entry = (name: string) => body.data.find((e) => e.name === name);
    // income: 2500, 0, 2500 -> mean 1666.67; variance ((2500/3)^2 * 2 + (5000/3)^2) / 3 = 1388888.89
    expect(brief(entry('income')?.credit_total ?? [])).toEqual([['GBP', '5000.00', 2, '1666.67', '1388888.89', ['2500.00', '0.00', '2500.00']]]);
    expect(entry('income')?.debit_total).toEqual([]);
    // groceries 82.10, 0.01, 30.00 (GBP) and coffee 12.50 (EUR), per currency
    expect(brief(entry('food_and_drink')?.debit_total ?? [])).toEqual([
      ['EUR', '12.50', 1, '4.17', '34.72', ['0.00', '12.50', '0.00']],
      ['GBP', '112.11', 4, '37.37', '1150.29', ['82.10', '0.01', '30.00']],
    ]);
    expect(entry('food_and_drink')?.debit_total[1]?.monthly.map((m) => m.transaction_count)).toEqual([2, 1, 1]);
    expect(entry('food_and_drink')?.l2_totals).toEqual([]);
    expect(body.metadata.from).toBe('2024-01-01T00:00:00Z');
    expect(body.metadata.to).toBe('2024-03-31T23:59:59Z');
    expect(brief(body.metadata.credit_total)).toEqual([['GBP', '5200.00', 3, '1733.33', '1508888.89', ['2700.00', '0.00', '2500.00']]]);
    expect(body.metadata.debit_total.map((t) => [t.amount.currency, t.amount.value, t.transaction_count])).toEqual([
      ['EUR', '12.50', 1],
      ['GBP', '1267.66', 7],
    ]);
  });

  it('nests L2 totals with include_l2, filters by category, label, currency and account', async () => {
    const withL2 = await get('from=2024-01-01&to=2024-03-31&include_l2=true&currency=GBP');
    const food = withL2.data.find((e) => e.name === 'food_and_drink');
    expect(food?.l2_totals.map((l) => [l.name, l.debit_total[0]?.amount.value])).toEqual([['groceries', '112.11']]);
    const transfers = withL2.data.find((e) => e.name === 'transfers');
    expect(transfers?.l2_totals.map((l) => [l.name, l.credit_total[0]?.amount.value, l.debit_total[0]?.amount.value])).toEqual([['between_own_accounts', '200.00', '200.00']]);

    expect((await get('from=2024-01&to=2024-03&category=income,food_and_drink.coffee')).data.map((e) => e.name)).toEqual(['income', 'food_and_drink']);
    expect((await get('from=2024-01&to=2024-03&exclude_category=income,transfers')).data.map((e) => e.name)).toEqual(['mortgage_and_rent', 'food_and_drink', 'entertainment']);
    const essential = await get('from=2024-01&to=2024-03&category_label=essential');
    expect(essential.data.map((e) => e.name)).toEqual(['mortgage_and_rent', 'food_and_drink']);
    expect(essential.data[1]?.debit_total.map((t) => t.amount.currency)).toEqual(['GBP']);
    expect((await get('from=2024-01&to=2024-03&account_id=acc-2')).data.map((e) => [e.name, e.credit_total[0]?.amount.value])).toEqual([['transfers', '200.00']]);
  });

  it('widens dates to whole months; a different range gives different figures', async () => {
    const feb = await get('from=2024-02-10T00:00:00Z&to=2024-04-02');
    expect(feb.metadata.from).toBe('2024-02-01T00:00:00Z');
    expect(feb.metadata.to).toBe('2024-04-30T23:59:59Z');
    expect(brief(feb.data.find((e) => e.name === 'income')?.credit_total ?? [])).toEqual([['GBP', '2600.00', 2, '866.67', '1335555.56', ['0.00', '2500.00', '100.00']]]);
  });

  it.each([
    ['from=2024-13', { from: 'must be a month (YYYY-MM), a date (YYYY-MM-DD) or an RFC 3339 timestamp' }],
    ['from=2024-04&to=2024-01', { from: 'must not be after to' }],
    ['category=castles', { category: "unknown category 'castles': use l1 or l1.l2 slugs of uk-v2" }],
    ['include_l2=yes', { include_l2: 'must be true or false' }],
  ])('answers 400 for %s', async (query, errors) => {
    const res = await served.api.call('GET', `/aggregations/v2/totals/categories?${query}`, { headers: served.headers });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationBody(OP, errors));
  });
});
