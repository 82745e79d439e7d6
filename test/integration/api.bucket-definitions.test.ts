import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketCreatedResponse, bucketDetailResponse, bucketListResponse } from '../../src/api/schemas/buckets.schemas.js';
import { CORE_DASHBOARD } from '../../src/domain/core-dashboard.js';
import { UK_V2, modelPairs, pairKey } from '../../src/domain/taxonomy.js';
import { GENERIC_404, GENERIC_405, authHeaders, expectSchema, startApi, type ApiHarness, validationBody } from '../helpers/api.js';
import { REFERENCE, expectReferenceShape } from '../helpers/reference-shapes.js';

const DEFINITION = {
  name: 'lender-essentials',
  categorisation_model: 'uk-v2',
  buckets: [
    {
      bucket_l1: 'housing',
      additional_data: { colour: 'blue' },
      criteria: [
        { bucket_l2: 'rent', category_l1: 'mortgage_and_rent', category_l2: 'rent', additional_data: { weight: 1 } },
        { bucket_l2: 'mortgage', category_l1: 'mortgage_and_rent', category_l2: 'mortgage' },
      ],
    },
    {
      bucket_l1: 'food',
      criteria: [
        { bucket_l2: 'shopping', category_l1: 'food_and_drink', category_l2: 'groceries' },
        { bucket_l2: 'shopping', category_l1: 'food_and_drink', category_l2: 'other_food_and_drink' },
      ],
    },
  ],
};

describe('bucket definitions', () => {
  let api: ApiHarness;
  let headers: Record<string, string>;

  beforeAll(async () => {
    api = await startApi();
    const client = await api.createClient('client-a');
    headers = authHeaders((await api.token(client)).access_token, 'client-a');
  });
  afterAll(async () => api.close());

  it('creates (201), reads, lists, replaces (204) and deletes (204) a definition, keeping additional_data', async () => {
    const created = await api.call('POST', '/aggregations/v2/buckets', { headers, body: DEFINITION });
    expect(created.status).toBe(201);
    const id = expectSchema(bucketCreatedResponse, created.body).data.bucket_id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const detail = expectSchema(bucketDetailResponse, (await api.call('GET', `/aggregations/v2/buckets/${id}`, { headers })).body);
    expect(detail.data).toMatchObject({ bucket_id: id, name: DEFINITION.name, categorisation_model: 'uk-v2', buckets: DEFINITION.buckets });
    expect(detail.metadata).toEqual({});
    expect(detail.data.created_at).toBe(detail.data.updated_at);

    const list = expectSchema(bucketListResponse, (await api.call('GET', '/aggregations/v2/buckets', { headers })).body);
    expect(list.data.map((d) => [d.bucket_id, d.buckets])).toEqual([
      ['core-dashboard', ['income', 'essentials', 'non_essentials', 'general', 'transfers']],
      [id, ['housing', 'food']],
    ]);

    const replacement = { ...DEFINITION, name: 'renamed', buckets: DEFINITION.buckets.slice(0, 1) };
    const put = await api.call('PUT', `/aggregations/v2/buckets/${id}`, { headers, body: replacement });
    // As the reference answers a replace: 204 and no body at all.
    expect(put.status).toBe(204);
    expect(put.body).toBeUndefined();
    expect(put.headers.get('content-length') ?? '0').toBe('0');
    const replaced = expectSchema(bucketDetailResponse, (await api.call('GET', `/aggregations/v2/buckets/${id}`, { headers })).body);
    expect(replaced.data).toMatchObject({ bucket_id: id, name: 'renamed', buckets: replacement.buckets, created_at: detail.data.created_at });

    const del = await api.call('DELETE', `/aggregations/v2/buckets/${id}`, { headers });
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    const gone = await api.call('GET', `/aggregations/v2/buckets/${id}`, { headers });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(GENERIC_404);
    expect((await api.call('DELETE', `/aggregations/v2/buckets/${id}`, { headers })).status).toBe(404);
  });

  it("gives every definition, core-dashboard's included, a name in the reference's slug pattern", async () => {
    const core = await api.call('GET', '/aggregations/v2/buckets/core-dashboard', { headers });
    expect(expectReferenceShape(REFERENCE.bucketDetail, core.body).data.name).toBe('core-dashboard');
    const id = expectSchema(bucketCreatedResponse, (await api.call('POST', '/aggregations/v2/buckets', { headers, body: DEFINITION })).body).data.bucket_id;
    expectReferenceShape(REFERENCE.bucketDetail, (await api.call('GET', `/aggregations/v2/buckets/${id}?bucket_lookup`, { headers })).body);
    expectReferenceShape(REFERENCE.bucketList, (await api.call('GET', '/aggregations/v2/buckets', { headers })).body);
  });

  it('keeps core-dashboard read-only: 405 on PUT and DELETE, whatever the body', async () => {
    for (const [method, body] of [['PUT', CORE_DASHBOARD], ['PUT', { name: '' }], ['DELETE', undefined]] as const) {
      const res = await api.call(method, '/aggregations/v2/buckets/core-dashboard', { headers, body });
      expect(res.status).toBe(405);
      expect(res.body).toEqual(GENERIC_405);
      expect(res.headers.get('allow')).toBe('GET');
    }
  });

  describe('validation of the create body', () => {
    const post = (body: unknown) => api.call('POST', '/aggregations/v2/buckets', { headers, body });
    const op = 'aggregations_v2_buckets_post';

    it.each<[string, unknown, Record<string, string>]>([
      ['an empty name', { ...DEFINITION, name: '  ' }, { name: 'is required' }],
      ['a missing name', { categorisation_model: 'uk-v2', buckets: DEFINITION.buckets }, { name: 'is required' }],
      ['a name that is not a string', { ...DEFINITION, name: 42 }, { name: 'must be a valid string' }],
      ['a missing model', { name: 'x', buckets: DEFINITION.buckets }, { categorisation_model: 'is required' }],
      ['an unknown model', { ...DEFINITION, categorisation_model: 'us-v1' }, { categorisation_model: "unknown categorisation model 'us-v1'" }],
      ['no buckets', { ...DEFINITION, buckets: [] }, { buckets: 'must have at least one bucket' }],
      ['buckets not an array', { ...DEFINITION, buckets: 'housing' }, { buckets: 'must be a valid array' }],
      ['a bucket_l1 that is not snake case', { ...DEFINITION, buckets: [{ ...DEFINITION.buckets[0], bucket_l1: 'Housing Costs' }] }, { 'buckets[0].bucket_l1': 'must be a snake case name' }],
      ['a bucket without criteria', { ...DEFINITION, buckets: [{ bucket_l1: 'housing', criteria: [] }] }, { 'buckets[0].criteria': 'must have at least one criterion' }],
      [
        'a criterion with missing fields',
        { ...DEFINITION, buckets: [{ bucket_l1: 'housing', criteria: [{ bucket_l2: 'rent' }] }] },
        { 'buckets[0].criteria[0].category_l1': 'is required', 'buckets[0].criteria[0].category_l2': 'is required' },
      ],
      [
        'an unknown category pair',
        { ...DEFINITION, buckets: [{ bucket_l1: 'housing', criteria: [{ bucket_l2: 'rent', category_l1: 'mortgage_and_rent', category_l2: 'castle' }] }] },
        { 'buckets[0].criteria[0]': "unknown category pair 'mortgage_and_rent/castle' in model uk-v2" },
      ],
      [
        'a category pair mapped twice',
        {
          ...DEFINITION,
          buckets: [
            DEFINITION.buckets[0],
            { bucket_l1: 'other', criteria: [{ bucket_l2: 'rent_again', category_l1: 'mortgage_and_rent', category_l2: 'rent' }] },
          ],
        },
        { 'buckets[1].criteria[0]': "category pair 'mortgage_and_rent/rent' is already mapped at buckets[0].criteria[0]" },
      ],
      ['a body that is not an object', [1, 2], { body: 'must be a valid object' }],
      ['a name that is not a slug', { ...DEFINITION, name: 'Lender essentials' }, { name: "must contain only letters, digits, '-' and '_'" }],
      [
        'no name and an unknown category pair, both at once',
        { categorisation_model: 'uk-v2', buckets: [{ bucket_l1: 'housing', criteria: [{ bucket_l2: 'rent', category_l1: 'mortgage_and_rent', category_l2: 'castle' }] }] },
        { name: 'is required', 'buckets[0].criteria[0]': "unknown category pair 'mortgage_and_rent/castle' in model uk-v2" },
      ],
      [
        'every kind of fault in one body',
        {
          name: 'bad name!',
          categorisation_model: 'uk-v2',
          buckets: [
            { bucket_l1: 'Housing Costs', criteria: [{ bucket_l2: 'rent', category_l1: 'mortgage_and_rent', category_l2: 'castle' }, { bucket_l2: 'x' }] },
            { bucket_l1: 'food', criteria: [{ bucket_l2: 'a', category_l1: 'food_and_drink', category_l2: 'groceries' }, { bucket_l2: 'b', category_l1: 'food_and_drink', category_l2: 'groceries' }] },
            { bucket_l1: 'food', criteria: [] },
          ],
        },
        {
          name: "must contain only letters, digits, '-' and '_'",
          'buckets[0].bucket_l1': 'must be a snake case name',
          'buckets[0].criteria[0]': "unknown category pair 'mortgage_and_rent/castle' in model uk-v2",
          'buckets[0].criteria[1].category_l1': 'is required',
          'buckets[0].criteria[1].category_l2': 'is required',
          'buckets[1].criteria[1]': "category pair 'food_and_drink/groceries' is already mapped at buckets[1].criteria[0]",
          'buckets[2].criteria': 'must have at least one criterion',
          'buckets[2].bucket_l1': "bucket 'food' appears twice",
        },
      ],
      ['a missing name and an unknown model', { categorisation_model: 'us-v1', buckets: DEFINITION.buckets }, { name: 'is required', categorisation_model: "unknown categorisation model 'us-v1'" }],
    ])('answers 400 for %s, one entry per offending field', async (_name, body, errors) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationBody(op, errors));
    });

    it('answers 400 for a malformed JSON body, and for none', async () => {
      const bad = await api.call('POST', '/aggregations/v2/buckets', { headers: { ...headers, 'content-type': 'application/json' }, body: '{"name": ' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(validationBody(op, { body: 'must be valid JSON' }));
      const none = await api.call('POST', '/aggregations/v2/buckets', { headers });
      expect(none.status).toBe(400);
      expect(none.body).toEqual(validationBody(op, { body: 'is required' }));
    });

    it('validates a replacement the same way', async () => {
      const id = expectSchema(bucketCreatedResponse, (await post(DEFINITION)).body).data.bucket_id;
      const res = await api.call('PUT', `/aggregations/v2/buckets/${id}`, { headers, body: { ...DEFINITION, name: '', categorisation_model: 'us-v1' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationBody('aggregations_v2_bucket_put', { name: 'is required', categorisation_model: "unknown categorisation model 'us-v1'" }));
    });
  });

  describe('lookups', () => {
    const detail = async (id: string, flags: string) =>
      expectSchema(bucketDetailResponse, (await api.call('GET', `/aggregations/v2/buckets/${id}?${flags}`, { headers })).body);

    it('adds only the structures whose flags are given, without values', async () => {
      expect(Object.keys((await detail('core-dashboard', 'bucket_lookup')).metadata)).toEqual(['bucket_lookup']);
      expect(Object.keys((await detail('core-dashboard', 'category_lookup&unbucketed_categories')).metadata).sort()).toEqual([
        'category_lookup',
        'unbucketed_categories',
      ]);
      expect((await detail('core-dashboard', 'bucket_lookup=false')).metadata).toEqual({});
    });

    it.each(['core-dashboard', 'created'])('bucket_lookup and category_lookup are inverses (%s)', async (which) => {
      const id = which === 'core-dashboard' ? which : expectSchema(bucketCreatedResponse, (await api.call('POST', '/aggregations/v2/buckets', { headers, body: DEFINITION })).body).data.bucket_id;
      const { metadata, data } = await detail(id, 'bucket_lookup&category_lookup');
      const bucketLookup = metadata.bucket_lookup ?? {};
      const categoryLookup = metadata.category_lookup ?? {};
      // Every bucket pair maps back to a category pair that maps forward onto the same bucket pair.
      for (const [b1, inner] of Object.entries(categoryLookup)) {
        for (const [b2, cat] of Object.entries(inner)) expect(bucketLookup[cat.category_l1]?.[cat.category_l2]).toEqual({ bucket_l1: b1, bucket_l2: b2 });
      }
      // Every bucket pair of the forward map has its way back.
      for (const inner of Object.values(bucketLookup)) {
        for (const b of Object.values(inner)) expect(categoryLookup[b.bucket_l1]?.[b.bucket_l2]).toBeDefined();
      }
      // And the forward map is exactly the criteria.
      const criteria = data.buckets.flatMap((g) => g.criteria.map((c) => [c.category_l1, c.category_l2, g.bucket_l1, c.bucket_l2]));
      expect(Object.values(bucketLookup).reduce((n, inner) => n + Object.keys(inner).length, 0)).toBe(criteria.length);
      for (const [c1, c2, b1, b2] of criteria) expect(bucketLookup[c1 ?? '']?.[c2 ?? '']).toEqual({ bucket_l1: b1, bucket_l2: b2 });
    });

    it('unbucketed_categories is the model minus the mapped pairs; core-dashboard has none', async () => {
      expect((await detail('core-dashboard', 'unbucketed_categories')).metadata.unbucketed_categories).toEqual([]);
      const id = expectSchema(bucketCreatedResponse, (await api.call('POST', '/aggregations/v2/buckets', { headers, body: DEFINITION })).body).data.bucket_id;
      const unbucketed = (await detail(id, 'unbucketed_categories')).metadata.unbucketed_categories ?? [];
      const mapped = new Set(DEFINITION.buckets.flatMap((g) => g.criteria.map((c) => pairKey(c))));
      expect(unbucketed.map(pairKey).sort()).toEqual(modelPairs(UK_V2).map(pairKey).filter((k) => !mapped.has(k)).sort());
      expect(unbucketed).toHaveLength(modelPairs(UK_V2).length - 4);
    });
  });
});
