/**
 * The uk-v2 category model as data. Slugs known from the reference API are
 * kept exactly; the rest follows the UK Standard Financial Statement (SFS).
 */
export type CategoryLabel = 'essential' | 'nonessential' | 'travel';

export interface SubcategoryDefinition {
  readonly name: string;
  readonly labels: readonly CategoryLabel[];
}

export interface CategoryDefinition {
  readonly name: string;
  readonly labels: readonly CategoryLabel[];
  readonly subcategories: readonly SubcategoryDefinition[];
}

export interface CategoryModel {
  readonly name: string;
  readonly description: string;
  readonly deprecated: boolean;
  readonly categories: readonly CategoryDefinition[];
}

export interface CategoryPair {
  readonly category_l1: string;
  readonly category_l2: string;
}

const E: readonly CategoryLabel[] = ['essential'];
const N: readonly CategoryLabel[] = ['nonessential'];
const T: readonly CategoryLabel[] = ['travel', 'nonessential'];
const NONE: readonly CategoryLabel[] = [];

function l1(name: string, labels: readonly CategoryLabel[], subs: ReadonlyArray<string | [string, readonly CategoryLabel[]]>): CategoryDefinition {
  return {
    name,
    labels,
    subcategories: subs.map((s) => (typeof s === 'string' ? { name: s, labels } : { name: s[0], labels: s[1] })),
  };
}

export const UK_V2: CategoryModel = {
  name: 'uk-v2',
  description: 'UK categorisation model, version 2: income by source and costs following the Standard Financial Statement.',
  deprecated: false,
  categories: [
    l1('income', NONE, [
      'salary', 'employment_income', 'interest_or_investments', 'universal_credit', 'child_benefit',
      'other_benefits', 'pension_income', 'rental_income', 'gig_work', 'other_income',
    ]),
    l1('mortgage_and_rent', E, ['mortgage', 'rent', 'ground_rent_and_service_charges', 'other_mortgage_and_rent']),
    l1('utilities', E, [
      'utilities_energy', 'utilities_water_and_sewage', 'phone_and_broadband', 'tv_licence',
      'waste_and_recycling', 'other_utilities',
    ]),
    l1('taxes', E, ['council_tax', 'income_tax', 'other_taxes']),
    l1('insurance', E, ['health_and_life_insurance', 'home_insurance', 'vehicle_insurance', 'other_insurance']),
    l1('family', E, ['childcare', 'childrens_expenses', 'child_maintenance', 'other_family']),
    l1('borrowing_and_loans', E, ['credit_cards', 'vehicle_loan', 'personal_loan', 'payday_loans', 'other_borrowing_and_loans']),
    l1('fines_and_legal', E, ['fines', 'legal_fees', 'other_fines_and_legal']),
    l1('transport', E, [
      'public_transport', 'fuel', 'vehicle_maintenance', 'parking_and_tolls', ['taxi', N], 'other_transport',
    ]),
    l1('food_and_drink', N, [['groceries', E], 'coffee', 'eating_out_and_takeaways', 'other_food_and_drink']),
    l1('health_and_fitness', N, [['healthcare', E], ['pharmacy', E], 'gym_and_fitness', 'other_health_and_fitness']),
    l1('pensions_savings_and_investments', NONE, ['savings', 'pension_contributions', 'investments', 'other_pensions_savings_and_investments']),
    l1('entertainment', N, ['leisure_and_amusement_activities', 'books_and_reading', 'media_subscriptions', 'gambling', 'other_entertainment']),
    l1('shopping', N, ['clothing', 'hobbies', 'electronics', 'gifts', 'other_shopping']),
    l1('home', N, ['pets', 'home_improvements', 'furniture_and_appliances', 'other_home']),
    l1('education', N, ['driving_lessons', ['school_and_tuition_fees', E], 'other_education']),
    l1('travel', T, ['holiday_and_travel_expenses', 'flights_and_airport_expenses', 'other_travel']),
    l1('charity', N, ['donations', 'other_charity']),
    l1('banking', NONE, [
      'bank_fees_and_currency_exchange', 'other_banking', 'cash_withdrawals', 'interest',
      'refunds_and_reversals', 'overdraft_fees', 'unpaid_transactions',
    ]),
    l1('transfers', NONE, ['transfers_in', 'transfers_out', 'between_own_accounts', 'other_transfers']),
    l1('general', NONE, ['other_general']),
  ],
};

export const CATEGORY_MODELS: readonly CategoryModel[] = [UK_V2];

export function findModel(name: string): CategoryModel | undefined {
  return CATEGORY_MODELS.find((m) => m.name === name);
}

export function modelPairs(model: CategoryModel): CategoryPair[] {
  return model.categories.flatMap((c) => c.subcategories.map((s) => ({ category_l1: c.name, category_l2: s.name })));
}

export function hasPair(model: CategoryModel, l1Name: string, l2Name: string): boolean {
  return model.categories.some((c) => c.name === l1Name && c.subcategories.some((s) => s.name === l2Name));
}

export function pairKey(pair: CategoryPair): string {
  return `${pair.category_l1}/${pair.category_l2}`;
}
