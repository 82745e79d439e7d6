import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsResponse } from '../../src/api/schemas/accounts.schemas.js';
import { categoriesResponse, categoryModelsResponse, flatCategoriesOut, mapCategoriesOut } from '../../src/api/schemas/categories.schemas.js';
import { customerApplicationResponse } from '../../src/api/schemas/customer-applications.schemas.js';
import { UK_V2 } from '../../src/domain/taxonomy.js';
import { GENERIC_404, authHeaders, expectSchema, startApi, type ApiHarness, validationBody } from '../helpers/api.js';

describe('accounts, customer applications and categories', () => {
  let api: ApiHarness;
  let token: string;
  const client = () => authHeaders(token, 'client-a');
  const customer = (id = 'cust-1', secret?: string) => authHeaders(token, 'client-a', id, secret);

  beforeAll(async () => {
    api = await startApi({ fixtures: ['hand-computed.ndjson', 'api-customers.ndjson'] });
    token = (await api.token(await api.createClient('client-a'))).access_token;
  });
  afterAll(async () => api.close());

  describe('GET /financial/v2/accounts', () => {
    it('lists the accounts with balances, parameters and result_count', async () => {
      const res = await api.call('GET', '/financial/v2/accounts', { headers: customer() });
      expect(res.status).toBe(200);
      const body = expectSchema(accountsResponse, res.body);
      expect(body.operation_id).toBe('financial_v2_accounts');
      expect(body.metadata).toEqual({ parameters: {}, result_count: 2 });
      expect(body.data[0]).toEqual({
        account_id: 'acc-1',
        currency: 'GBP',
        holder: { name: 'Alex Smith', relationship: 'account_holder' },
        account_name: 'Current account',
        account_type: 'current',
        usage_type: 'personal',
        provider: 'Monzo',
        identifiers: { uk_account_number: '12345678', uk_sort_code: '04-00-04' },
        balances: [{ date: '2024-03-31T23:00:00Z', amount: { value: '1523.40', currency: 'GBP' }, type: 'expected', credit_debit_indicator: 'credit' }],
      });
    });

    it('filters, and echoes the filters applied', async () => {
      const res = await api.call('GET', '/financial/v2/accounts?account_type=savings&currency=GBP&provider=Monzo&usage_type=personal&holder_relationship_type=account_holder', {
        headers: customer(),
      });
      const body = expectSchema(accountsResponse, res.body);
      expect(body.data.map((a) => a.account_id)).toEqual(['acc-2']);
      // Under the reference's names, each a list.
      expect(body.metadata).toEqual({
        parameters: { account_types: ['savings'], currencies: ['GBP'], providers: ['Monzo'], usage_types: ['personal'], holder_types: ['account_holder'] },
        result_count: 1,
      });
      const none = expectSchema(accountsResponse, (await api.call('GET', '/financial/v2/accounts?provider=HSBC', { headers: customer() })).body);
      expect(none.metadata.result_count).toBe(0);
    });

    it('takes several values of a filter, repeated or as a comma list, as the reference does', async () => {
      for (const query of ['account_type=savings&account_type=current', 'account_type=savings,current', 'account_type=current,nothing&account_type=savings']) {
        const body = expectSchema(accountsResponse, (await api.call('GET', `/financial/v2/accounts?${query}`, { headers: customer() })).body);
        expect(body.data.map((a) => a.account_id), query).toEqual(['acc-1', 'acc-2']);
      }
      const both = expectSchema(accountsResponse, (await api.call('GET', '/financial/v2/accounts?currency=EUR,GBP&provider=Monzo&provider=HSBC', { headers: customer() })).body);
      expect(both.metadata).toEqual({ parameters: { currencies: ['EUR', 'GBP'], providers: ['Monzo', 'HSBC'] }, result_count: 2 });
      const bad = await api.call('GET', '/financial/v2/accounts?currency=GBP,XYZ', { headers: customer() });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code_id: 'failed_validation', errors: { currency: 'must be an ISO 4217 currency code such as GBP' } });
    });

    it('serves a non-hosted customer with its secret', async () => {
      const body = expectSchema(accountsResponse, (await api.call('GET', '/financial/v2/accounts', { headers: customer('cust-2', 'cust-2-secret-0123456789') })).body);
      expect(body.data.map((a) => a.account_id)).toEqual(['acc-3']);
      expect(body.data[0]?.balances[0]?.credit_debit_indicator).toBe('debit');
    });
  });

  describe('GET /core/v1/customer-applications/{application_id}', () => {
    it('returns the application of a customer of the client', async () => {
      const res = await api.call('GET', '/core/v1/customer-applications/app-1', { headers: client() });
      expect(res.status).toBe(200);
      const body = expectSchema(customerApplicationResponse, res.body);
      expect(body.operation_id).toBe('v1_customer_application_get');
      expect(body.data).toMatchObject({
        application_id: 'app-1',
        customer_id: 'cust-1',
        creation_date: '2024-01-02T00:00:00.000Z',
        accounts_connected: 2,
        metadata: { account_connection_initiator: 'customer', application_id: 'app-1' },
        primary_applicant: { first_name: 'Alex', last_name: 'Smith' },
        secondary_applicants: [],
        deletion_date: '',
        financial_data_consent: 'one_time',
        initiator_id: 'broker-7',
        customer_link: { url: 'https://link.example/app-1', finished_connecting_accounts: true, expired: false, status: 'completed' },
        review_status: 'pending',
        assignee: 'underwriter-1',
      });
    });

    it('answers the generic 404 body for an unknown application', async () => {
      const res = await api.call('GET', '/core/v1/customer-applications/app-404', { headers: client() });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(GENERIC_404);
    });
  });

  describe('GET /resources/v2/categories', () => {
    it('flat by default: the L1 and L2 slugs, with the model', async () => {
      const body = expectSchema(categoriesResponse, (await api.call('GET', '/resources/v2/categories', { headers: client() })).body);
      expect(body.operation_id).toBe('resources_v2_categories_get');
      const flat = flatCategoriesOut.parse(body.data);
      expect(flat.categories).toEqual(UK_V2.categories.map((c) => c.name));
      expect(flat.subcategories).toContain('between_own_accounts');
      expect(body.metadata.model).toEqual({ name: 'uk-v2', description: UK_V2.description, deprecated: false });
    });

    it('map with labels, and a label filter', async () => {
      const map = mapCategoriesOut.parse(
        expectSchema(categoriesResponse, (await api.call('GET', '/resources/v2/categories?format=map', { headers: client() })).body).data,
      );
      expect(map.find((c) => c.name === 'transport')?.subcategories.find((s) => s.name === 'taxi')?.labels).toEqual(['nonessential']);
      const essential = mapCategoriesOut.parse(
        expectSchema(categoriesResponse, (await api.call('GET', '/resources/v2/categories?format=map&label=essential', { headers: client() })).body).data,
      );
      expect(essential.find((c) => c.name === 'transport')?.subcategories.map((s) => s.name)).not.toContain('taxi');
      expect(essential.find((c) => c.name === 'food_and_drink')?.subcategories.map((s) => s.name)).toEqual(['groceries']);
      expect(essential.map((c) => c.name)).not.toContain('entertainment');
      const travelFlat = flatCategoriesOut.parse(
        expectSchema(categoriesResponse, (await api.call('GET', '/resources/v2/categories?label=travel', { headers: client() })).body).data,
      );
      expect(travelFlat.categories).toEqual(['travel']);
    });

    it('answers 400 for an unknown model, format or label', async () => {
      const res = await api.call('GET', '/resources/v2/categories?model=us-v1&format=tree&label=cheap', { headers: client() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationBody('resources_v2_categories_get', { format: 'must be one of: flat, map', model: 'must be one of: uk-v2', label: 'must be one of: essential, nonessential, travel' }));
    });

    it('lists the models', async () => {
      const body = expectSchema(categoryModelsResponse, (await api.call('GET', '/resources/v2/categories/models', { headers: client() })).body);
      expect(body.data).toEqual([{ name: 'uk-v2', description: UK_V2.description, deprecated: false }]);
    });
  });
});
