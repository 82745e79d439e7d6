import { hasPair, UK_V2 } from '../domain/taxonomy.js';
import { affordError } from '../domain/errors.js';

/** The fixed word lists behind the synthetic data: UK names, banks, billers and merchants. */

export interface Category {
  readonly l1: string;
  readonly l2: string;
}

/** Checked when the module loads, so that a typo fails every run instead of producing dead letters. */
function cat(l1: string, l2: string): Category {
  if (!hasPair(UK_V2, l1, l2)) throw affordError('UNKNOWN_TAXONOMY_PAIR', `${l1}/${l2}`);
  return { l1, l2 };
}

export const CAT = {
  salary: cat('income', 'salary'),
  universalCredit: cat('income', 'universal_credit'),
  childBenefit: cat('income', 'child_benefit'),
  gigWork: cat('income', 'gig_work'),
  rent: cat('mortgage_and_rent', 'rent'),
  mortgage: cat('mortgage_and_rent', 'mortgage'),
  councilTax: cat('taxes', 'council_tax'),
  energy: cat('utilities', 'utilities_energy'),
  water: cat('utilities', 'utilities_water_and_sewage'),
  phone: cat('utilities', 'phone_and_broadband'),
  tvLicence: cat('utilities', 'tv_licence'),
  groceries: cat('food_and_drink', 'groceries'),
  coffee: cat('food_and_drink', 'coffee'),
  eatingOut: cat('food_and_drink', 'eating_out_and_takeaways'),
  publicTransport: cat('transport', 'public_transport'),
  fuel: cat('transport', 'fuel'),
  taxi: cat('transport', 'taxi'),
  vehicleInsurance: cat('insurance', 'vehicle_insurance'),
  gym: cat('health_and_fitness', 'gym_and_fitness'),
  pharmacy: cat('health_and_fitness', 'pharmacy'),
  subscriptions: cat('entertainment', 'media_subscriptions'),
  gambling: cat('entertainment', 'gambling'),
  clothing: cat('shopping', 'clothing'),
  electronics: cat('shopping', 'electronics'),
  otherShopping: cat('shopping', 'other_shopping'),
  holiday: cat('travel', 'holiday_and_travel_expenses'),
  flights: cat('travel', 'flights_and_airport_expenses'),
  fxFees: cat('banking', 'bank_fees_and_currency_exchange'),
  cash: cat('banking', 'cash_withdrawals'),
  interest: cat('banking', 'interest'),
  refunds: cat('banking', 'refunds_and_reversals'),
  creditCards: cat('borrowing_and_loans', 'credit_cards'),
  paydayLoans: cat('borrowing_and_loans', 'payday_loans'),
  unpaid: cat('banking', 'unpaid_transactions'),
  ownTransfer: cat('transfers', 'between_own_accounts'),
} as const;

export const FIRST_NAMES = [
  'Oliver', 'George', 'Harry', 'Jack', 'Jacob', 'Noah', 'Charlie', 'Muhammad', 'Thomas', 'Oscar', 'James', 'William',
  'Amelia', 'Olivia', 'Isla', 'Emily', 'Poppy', 'Ava', 'Isabella', 'Jessica', 'Lily', 'Sophie', 'Grace', 'Priya',
  'Aisha', 'Chloe', 'Megan', 'Hannah', 'Daniel', 'Ryan', 'Liam', 'Sean', 'Rhys', 'Catrin', 'Fiona', 'Callum',
] as const;

export const LAST_NAMES = [
  'Smith', 'Jones', 'Williams', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Thomas', 'Johnson', 'Roberts',
  'Robinson', 'Thompson', 'Wright', 'Walker', 'White', 'Edwards', 'Hughes', 'Green', 'Hall', 'Lewis', 'Harris',
  'Clarke', 'Patel', 'Jackson', 'Wood', 'Turner', 'Martin', 'Cooper', 'Hill', 'Ward', 'Hussain', 'Campbell', 'Khan',
  'Murphy', 'MacDonald', "O'Brien", 'Singh',
] as const;

export interface Bank {
  readonly name: string;
  readonly sortPrefix: string; // the first two digits of its sort codes
}

export const BANKS: readonly Bank[] = [
  { name: 'Barclays', sortPrefix: '20' },
  { name: 'HSBC UK', sortPrefix: '40' },
  { name: 'Lloyds Bank', sortPrefix: '30' },
  { name: 'NatWest', sortPrefix: '60' },
  { name: 'Santander UK', sortPrefix: '09' },
  { name: 'Nationwide', sortPrefix: '07' },
  { name: 'Halifax', sortPrefix: '11' },
  { name: 'Monzo', sortPrefix: '04' },
  { name: 'Starling Bank', sortPrefix: '60' },
  { name: 'TSB', sortPrefix: '77' },
];

export const CARD_ISSUERS = ['Barclaycard', 'American Express', 'Capital One', 'MBNA', 'Tesco Bank', 'Virgin Money'] as const;

export const EMPLOYERS = [
  'ACME LTD', 'NHS BIRMINGHAM', 'TESCO PLC', 'BAE SYSTEMS', 'KIER GROUP', 'CAPITA PLC', 'SERCO LTD', 'BT GROUP',
  'AVIVA PLC', 'LEEDS CITY COUNCIL', 'JOHN LEWIS PTNRS', 'AMAZON UK SERV', 'DELOITTE LLP', 'OCADO RETAIL',
] as const;

export const GIG_PLATFORMS = ['UBER BV', 'DELIVEROO', 'JUST EAT PAYOUT', 'STUART DELIVERY', 'FIVERR', 'UPWORK'] as const;
export const LANDLORDS = ['FOXTONS RENT', 'OPENRENT', 'CLARION HOUSING', 'PEABODY TRUST', 'L&Q RENT', 'J SMITH RENT'] as const;
export const LENDERS = ['NATIONWIDE MORTGAGE', 'HALIFAX MORTGAGE', 'SANTANDER MORTGAGE', 'BARCLAYS MORTGAGE', 'COVENTRY BS'] as const;
export const COUNCILS = [
  'LB CAMDEN CTAX', 'BIRMINGHAM CC CTAX', 'MANCHESTER CC', 'LEEDS CC CTAX', 'BRISTOL CITY COUNCIL', 'CARDIFF COUNCIL',
  'GLASGOW CITY CNCL', 'SHEFFIELD CC CTAX', 'NOTTINGHAM CC', 'KENT CC',
] as const;
export const ENERGY = ['OCTOPUS ENERGY', 'BRITISH GAS', 'EDF ENERGY', 'E.ON NEXT', 'OVO ENERGY', 'SCOTTISH POWER'] as const;
export const WATER = ['THAMES WATER', 'SEVERN TRENT', 'UNITED UTILITIES', 'ANGLIAN WATER', 'YORKSHIRE WATER', 'WELSH WATER'] as const;
export const PHONE = ['VODAFONE', 'EE LIMITED', 'O2 UK', 'THREE UK', 'BT GROUP PLC', 'VIRGIN MEDIA', 'SKY DIGITAL'] as const;
export const SUPERMARKETS = [
  'TESCO STORES', 'SAINSBURYS S/MKTS', 'ASDA STORES', 'ALDI', 'LIDL GB', 'MORRISONS', 'CO-OP GROUP', 'M&S SIMPLY FOOD',
  'WAITROSE',
] as const;
export const TRANSIT = ['TFL TRAVEL CH', 'TRAINLINE', 'NATIONAL RAIL', 'STAGECOACH BUS', 'FIRST BUS', 'ARRIVA'] as const;
export const FUEL = ['SHELL', 'BP', 'ESSO', 'TESCO PFS', 'SAINSBURYS PETROL', 'TEXACO'] as const;
export const INSURERS = ['ADMIRAL INSURANCE', 'AVIVA INSURANCE', 'DIRECT LINE', 'CHURCHILL INS'] as const;
export const GYMS = ['PUREGYM', 'THE GYM GROUP', 'DAVID LLOYD', 'NUFFIELD HEALTH'] as const;

export interface Subscription {
  readonly name: string;
  readonly pence: number;
}

export const SUBSCRIPTIONS: readonly Subscription[] = [
  { name: 'NETFLIX.COM', pence: 1099 },
  { name: 'SPOTIFY UK', pence: 1199 },
  { name: 'DISNEY PLUS', pence: 799 },
  { name: 'AMAZON PRIME', pence: 899 },
  { name: 'APPLE.COM/BILL', pence: 299 },
  { name: 'NOW TV', pence: 999 },
  { name: 'YOUTUBE PREMIUM', pence: 1299 },
  { name: 'AUDIBLE UK', pence: 799 },
];

export const EATING_OUT = [
  'MCDONALDS', 'NANDOS', 'GREGGS', 'DELIVEROO', 'JUST EAT', 'WAGAMAMA', 'PIZZA EXPRESS', 'KFC', 'WETHERSPOON',
  'DOMINOS PIZZA', 'SUBWAY', 'UBER EATS',
] as const;
export const COFFEE = ['COSTA COFFEE', 'STARBUCKS', 'CAFFE NERO', 'PRET A MANGER', 'BLACK SHEEP COFFEE'] as const;
/** Firms on the FCA register with high-cost short-term credit permissions, by their trading names. */
export const PAYDAY_LENDERS = ['LENDING STREAM', 'MR LENDER', 'MONEYBOAT', 'DRAFTY', 'SATSUMA LOANS'] as const;
export const BOOKMAKERS = ['BET365', 'PADDY POWER', 'SKY BETTING', 'WILLIAM HILL', 'NATIONAL LOTTERY', 'BETFAIR'] as const;
export const CLOTHING = ['NEXT RETAIL', 'PRIMARK', 'H&M', 'ZARA UK', 'TK MAXX', 'ASOS.COM'] as const;
export const GENERAL_SHOPS = ['AMAZON.CO.UK', 'ARGOS', 'JOHN LEWIS', 'B&M RETAIL', 'THE RANGE', 'WILKO'] as const;
export const ELECTRONICS = ['CURRYS', 'APPLE STORE', 'AO.COM'] as const;
export const PHARMACIES = ['BOOTS', 'SUPERDRUG', 'LLOYDS PHARMACY'] as const;
export const TAXIS = ['UBER TRIP', 'BOLT.EU', 'ADDISON LEE', 'FREE NOW'] as const;
export const AIRLINES = ['RYANAIR', 'EASYJET', 'BRITISH AIRWAYS', 'JET2.COM'] as const;
export const EURO_MERCHANTS = [
  'RESTAURANTE EL SOL MADRID', 'CARREFOUR BARCELONA', 'HOTEL IBIS PARIS', 'LA BOQUERIA', 'TRATTORIA ROMA', 'MERCADONA',
  'FNAC LISBOA', 'TAXI AMSTERDAM',
] as const;
