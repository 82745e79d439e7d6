import { describe, expect, it } from 'vitest';
import { CORE_DASHBOARD } from '../../src/domain/core-dashboard.js';
import { bucketLookup, categoryLookup, unbucketedCategories, validateAgainstModel } from '../../src/domain/buckets.js';
import { modelPairs, pairKey, UK_V2 } from '../../src/domain/taxonomy.js';

describe('uk-v2', () => {
  it('has unique L1 slugs, unique L2 slugs within each L1, and an other_* L2 in every L1', () => {
    const l1s = UK_V2.categories.map((c) => c.name);
    expect(new Set(l1s).size).toBe(l1s.length);
    for (const c of UK_V2.categories) {
      const l2s = c.subcategories.map((s) => s.name);
      expect(new Set(l2s).size, c.name).toBe(l2s.length);
      expect(l2s.some((s) => s.startsWith('other_')), `${c.name} has an other_* L2`).toBe(true);
    }
  });

  it('keeps every slug known from the reference API', () => {
    const known: Record<string, string[]> = {
      income: ['salary', 'employment_income', 'interest_or_investments'],
      mortgage_and_rent: ['mortgage', 'rent'],
      utilities: ['utilities_energy', 'other_utilities', 'waste_and_recycling'],
      banking: ['bank_fees_and_currency_exchange', 'other_banking', 'cash_withdrawals', 'interest', 'refunds_and_reversals', 'overdraft_fees', 'unpaid_transactions'],
      travel: ['holiday_and_travel_expenses', 'flights_and_airport_expenses', 'other_travel'],
      food_and_drink: ['groceries', 'coffee', 'eating_out_and_takeaways'],
      entertainment: ['leisure_and_amusement_activities', 'books_and_reading', 'media_subscriptions'],
      home: ['pets'],
      education: ['driving_lessons'],
      borrowing_and_loans: ['credit_cards', 'vehicle_loan'],
      pensions_savings_and_investments: ['savings'],
      transport: ['taxi'],
      shopping: ['clothing', 'hobbies'],
      general: ['other_general'],
    };
    const keys = new Set(modelPairs(UK_V2).map(pairKey));
    for (const [l1, l2s] of Object.entries(known)) for (const l2 of l2s) expect(keys.has(`${l1}/${l2}`), `${l1}/${l2}`).toBe(true);
  });
});

describe('core-dashboard', () => {
  const pairs = CORE_DASHBOARD.buckets.flatMap((b) => b.criteria.map((c) => pairKey(c)));

  it('maps every uk-v2 pair exactly once', () => {
    const modelKeys = modelPairs(UK_V2).map(pairKey).sort();
    expect([...pairs].sort()).toEqual(modelKeys);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(unbucketedCategories(CORE_DASHBOARD)).toEqual([]);
    expect(validateAgainstModel(CORE_DASHBOARD)).toEqual({});
  });

  it('has exactly the five L1 groups of docs/taxonomy.md', () => {
    expect(CORE_DASHBOARD.buckets.map((b) => b.bucket_l1)).toEqual(['income', 'essentials', 'non_essentials', 'general', 'transfers']);
  });

  it('has the ten essentials L2 names of the reference API (docs/taxonomy.md)', () => {
    const essentials = new Set(CORE_DASHBOARD.buckets.find((b) => b.bucket_l1 === 'essentials')?.criteria.map((c) => c.bucket_l2));
    for (const name of [
      'mortgage', 'savings', 'groceries', 'council_tax', 'utilities_energy', 'childrens_expenses',
      'public_transport', 'gym_and_fitness', 'utilities_water_and_sewage', 'health_and_life_insurance',
    ]) expect(essentials.has(name), name).toBe(true);
  });

  it('never counts transfers between own accounts as income', () => {
    const lookup = bucketLookup(CORE_DASHBOARD);
    expect(lookup['transfers']?.['between_own_accounts']?.bucket_l1).toBe('transfers');
    const income = CORE_DASHBOARD.buckets.find((b) => b.bucket_l1 === 'income');
    expect(income?.criteria.every((c) => c.category_l1 === 'income')).toBe(true);
  });

  it('has lookups that are inverse to each other', () => {
    const byCategory = bucketLookup(CORE_DASHBOARD);
    const byBucket = categoryLookup(CORE_DASHBOARD);
    for (const [b1, inner] of Object.entries(byBucket)) {
      for (const [b2, pair] of Object.entries(inner)) {
        expect(byCategory[pair.category_l1]?.[pair.category_l2]).toEqual({ bucket_l1: b1, bucket_l2: b2 });
      }
    }
  });
});
