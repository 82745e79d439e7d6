import type { ClientsRepository } from '../../clients/clients.repository.js';
import { CachedClientsRepository, CachedCustomersRepository } from '../cache/cached-lookups.js';
import { ReadCache } from '../cache/read-cache.js';
import type { Store } from '../../db/store.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import type { TokenService } from '../auth/tokens.js';
import { AccountsRepository } from '../repositories/accounts.repository.js';
import { BucketDefinitionsRepository } from '../repositories/bucket-definitions.repository.js';
import { CustomerApplicationsRepository } from '../repositories/customer-applications.repository.js';
import type { CustomersRepository } from '../repositories/customers.repository.js';
import { HealthRepository } from '../repositories/health.repository.js';
import { MonthlyTotalsRepository } from '../repositories/monthly-totals.repository.js';
import { TransactionsRepository } from '../repositories/transactions.repository.js';
import { AccountsService } from './accounts.service.js';
import { AffordabilityService } from './affordability.service.js';
import { BucketTotalsService } from './bucket-totals.service.js';
import { BucketsService } from './buckets.service.js';
import { CategoriesService } from './categories.service.js';
import { CategoryTotalsService } from './category-totals.service.js';
import { CustomerApplicationsService } from './customer-applications.service.js';
import { OAuthService } from './oauth.service.js';
import { TransactionsService } from './transactions.service.js';
import type { ForeignCustomers } from './foreign-customers.js';

/** Every service of the API, built once per server from the store. Later resources add theirs here. */
export interface ApiServices {
  clients: ClientsRepository;
  customers: CustomersRepository;
  health: HealthRepository;
  oauth: OAuthService;
  buckets: BucketsService;
  bucketTotals: BucketTotalsService;
  transactions: TransactionsService;
  accounts: AccountsService;
  applications: CustomerApplicationsService;
  categories: CategoriesService;
  categoryTotals: CategoryTotalsService;
  affordability: AffordabilityService;
}

/**
 * `clock` is what "now" means for the default month ranges; tests pin it.
 * `cache` keeps the clients and customers every call looks up (off unless given).
 */
export function createServices(store: Store, tokens: TokenService, clock: Clock = systemClock, cache: ReadCache = new ReadCache(0), foreign?: ForeignCustomers): ApiServices {
  const monthlyTotals = new MonthlyTotalsRepository(store);
  const buckets = new BucketsService(new BucketDefinitionsRepository(store));
  const clients = new CachedClientsRepository(store, cache);
  return {
    clients,
    customers: new CachedCustomersRepository(store, cache),
    health: new HealthRepository(store),
    oauth: new OAuthService(clients, tokens),
    buckets,
    bucketTotals: new BucketTotalsService(buckets, monthlyTotals, clock),
    transactions: new TransactionsService(new TransactionsRepository(store), buckets),
    accounts: new AccountsService(new AccountsRepository(store)),
    applications: new CustomerApplicationsService(new CustomerApplicationsRepository(store), clock),
    categories: new CategoriesService(),
    categoryTotals: new CategoryTotalsService(monthlyTotals, clock),
    affordability: new AffordabilityService(store, clock, undefined, undefined, foreign),
  };
}
