import type { BucketDefinitionBody } from './buckets.js';

/**
 * The predefined `core-dashboard` buckets. Every pair of uk-v2 is mapped
 * exactly once (a unit test holds it to that). Transfers between one's own
 * accounts sit in `transfers`, never in `income`.
 */
export const CORE_DASHBOARD_ID = 'core-dashboard';

type Mapping = Record<string, Record<string, readonly string[]>>;

// bucket_l1 -> bucket_l2 -> category pairs "l1/l2"
const MAPPING: Mapping = {
  income: {
    salary: ['income/salary', 'income/employment_income'],
    benefits: ['income/universal_credit', 'income/child_benefit', 'income/other_benefits'],
    pension_income: ['income/pension_income'],
    rental_income: ['income/rental_income'],
    gig_work: ['income/gig_work'],
    investment_income: ['income/interest_or_investments'],
    other_income: ['income/other_income'],
  },
  essentials: {
    mortgage: ['mortgage_and_rent/mortgage'],
    rent: ['mortgage_and_rent/rent', 'mortgage_and_rent/ground_rent_and_service_charges', 'mortgage_and_rent/other_mortgage_and_rent'],
    savings: ['pensions_savings_and_investments/savings', 'pensions_savings_and_investments/pension_contributions'],
    groceries: ['food_and_drink/groceries'],
    council_tax: ['taxes/council_tax'],
    other_taxes: ['taxes/income_tax', 'taxes/other_taxes'],
    utilities_energy: ['utilities/utilities_energy'],
    utilities_water_and_sewage: ['utilities/utilities_water_and_sewage'],
    phone_and_broadband: ['utilities/phone_and_broadband'],
    tv_licence: ['utilities/tv_licence'],
    other_utilities: ['utilities/waste_and_recycling', 'utilities/other_utilities'],
    childrens_expenses: ['family/childrens_expenses', 'family/other_family'],
    childcare: ['family/childcare', 'family/child_maintenance', 'education/school_and_tuition_fees'],
    public_transport: ['transport/public_transport'],
    fuel: ['transport/fuel'],
    vehicle_costs: ['transport/vehicle_maintenance', 'transport/parking_and_tolls', 'transport/other_transport', 'borrowing_and_loans/vehicle_loan'],
    gym_and_fitness: ['health_and_fitness/gym_and_fitness'],
    health_and_life_insurance: ['insurance/health_and_life_insurance'],
    insurance: ['insurance/home_insurance', 'insurance/vehicle_insurance', 'insurance/other_insurance'],
    healthcare: ['health_and_fitness/healthcare', 'health_and_fitness/pharmacy'],
    loans_and_credit_cards: [
      'borrowing_and_loans/credit_cards', 'borrowing_and_loans/personal_loan', 'borrowing_and_loans/payday_loans',
      'borrowing_and_loans/other_borrowing_and_loans',
    ],
    fines: ['fines_and_legal/fines', 'fines_and_legal/legal_fees', 'fines_and_legal/other_fines_and_legal'],
  },
  non_essentials: {
    gambling: ['entertainment/gambling'],
    eating_out: ['food_and_drink/eating_out_and_takeaways', 'food_and_drink/coffee'],
    entertainment_and_subscriptions: [
      'entertainment/leisure_and_amusement_activities', 'entertainment/books_and_reading',
      'entertainment/media_subscriptions', 'entertainment/other_entertainment',
    ],
    shopping: ['shopping/clothing', 'shopping/hobbies', 'shopping/electronics', 'shopping/gifts', 'shopping/other_shopping'],
    home: ['home/pets', 'home/home_improvements', 'home/furniture_and_appliances', 'home/other_home'],
    holidays_and_travel: ['travel/holiday_and_travel_expenses', 'travel/flights_and_airport_expenses', 'travel/other_travel'],
    taxi: ['transport/taxi'],
    education: ['education/driving_lessons', 'education/other_education'],
    charity: ['charity/donations', 'charity/other_charity'],
    other_health_and_fitness: ['health_and_fitness/other_health_and_fitness'],
  },
  general: {
    bank_fees: ['banking/bank_fees_and_currency_exchange', 'banking/overdraft_fees', 'banking/unpaid_transactions'],
    cash_withdrawals: ['banking/cash_withdrawals'],
    refunds: ['banking/refunds_and_reversals'],
    interest: ['banking/interest'],
    investments: ['pensions_savings_and_investments/investments', 'pensions_savings_and_investments/other_pensions_savings_and_investments'],
    other_food_and_drink: ['food_and_drink/other_food_and_drink'],
    other_general: ['general/other_general', 'banking/other_banking'],
  },
  transfers: {
    transfers_in: ['transfers/transfers_in'],
    transfers_out: ['transfers/transfers_out'],
    between_own_accounts: ['transfers/between_own_accounts'],
    other_transfers: ['transfers/other_transfers'],
  },
};

export const CORE_DASHBOARD: BucketDefinitionBody = {
  // The reference API's names are slugs (letters, digits, '-' and '_'): no spaces.
  name: 'core-dashboard',
  categorisation_model: 'uk-v2',
  buckets: Object.entries(MAPPING).map(([bucketL1, l2s]) => ({
    bucket_l1: bucketL1,
    criteria: Object.entries(l2s).flatMap(([bucketL2, pairs]) =>
      pairs.map((pair) => {
        const [categoryL1, categoryL2] = pair.split('/') as [string, string];
        return { bucket_l2: bucketL2, category_l1: categoryL1, category_l2: categoryL2 };
      }),
    ),
  })),
};

export const CORE_DASHBOARD_CREATED_AT = '2024-01-01T00:00:00Z';
