/**
 * Words for the slugs the PDF would otherwise print: bucket names of
 * core-dashboard, categories, account types, stream sources and frequencies.
 * The JSON keeps the slugs; a person reads these. A slug with no entry here
 * reads as its words ('pension_income' -> 'Pension income'), so a new
 * bucket or category never prints as a slug.
 */

const WORDS: Record<string, string> = {
  // bucket L1 of core-dashboard
  non_essentials: 'Non-essentials',
  // bucket L2 and categories whose plain words read badly
  tv_licence: 'TV licence',
  utilities_energy: 'Energy',
  utilities_water_and_sewage: 'Water and sewerage',
  phone_and_broadband: 'Phone and broadband',
  childrens_expenses: "Children's expenses",
  loans_and_credit_cards: 'Loans and credit cards',
  health_and_life_insurance: 'Health and life insurance',
  entertainment_and_subscriptions: 'Entertainment and subscriptions',
  interest_or_investments: 'Interest or investments',
  gig_work: 'Gig work',
  payday_loans: 'Payday loans',
  bnpl: 'BNPL',
  universal_credit: 'Universal Credit',
  // frequencies
  four_weekly: 'Four-weekly',
  fortnightly: 'Fortnightly',
};

/** 'utilities_energy' -> 'Energy'; 'pension_income' -> 'Pension income'. */
export function label(slug: string): string {
  const known = WORDS[slug];
  if (known) return known;
  const words = slug.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : slug;
}

const ACCOUNT_TYPES: Record<string, string> = {
  current: 'current account',
  savings: 'savings account',
  credit_card: 'credit card',
  credit: 'credit card',
  loan: 'loan account',
  mortgage: 'mortgage account',
};

/** An account type in words, lower case as it follows a name: 'credit_card' -> 'credit card'. */
export function accountTypeLabel(type: string): string {
  return ACCOUNT_TYPES[type] ?? type.replace(/[_-]+/g, ' ');
}

/** A label in the middle of a sentence: 'Energy' -> 'energy', but 'TV licence' stays. */
export function lowerLabel(slug: string): string {
  const text = label(slug);
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}
