import { requireCustomer } from '../auth/context.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import { OP_ACCOUNTS_GET, accountsQuery, accountsResponse } from '../schemas/accounts.schemas.js';
import type { ApiServices } from '../services/index.js';

export function accountsRoutes(router: Router, { accounts }: ApiServices): void {
  router.add({
    method: 'GET',
    url: '/financial/v2/accounts',
    operationId: OP_ACCOUNTS_GET,
    summary: "A customer's accounts with their balances",
    tag: 'Accounts',
    auth: 'customer',
    query: accountsQuery,
    response: accountsResponse,
    handler: async ({ query, auth }) => {
      const result = await accounts.list(requireCustomer(auth), query);
      return envelope(OP_ACCOUNTS_GET, result.accounts, result.metadata);
    },
  });
}
