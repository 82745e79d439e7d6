import { requireCustomer } from '../auth/context.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import { OP_TRANSACTIONS_GET, transactionsQuery, transactionsResponse } from '../schemas/transactions.schemas.js';
import type { ApiServices } from '../services/index.js';

export function transactionsRoutes(router: Router, { transactions }: ApiServices): void {
  router.add({
    method: 'GET',
    url: '/financial/v2/transactions',
    operationId: OP_TRANSACTIONS_GET,
    summary: "A customer's transactions, newest first, filtered and paginated by keyset; the target of every totals link",
    tag: 'Transactions',
    auth: 'customer',
    query: transactionsQuery,
    response: transactionsResponse,
    handler: async ({ query, auth }) => {
      const { clientId, customerId } = requireCustomer(auth);
      const page = await transactions.list(clientId, customerId, query);
      return envelope(OP_TRANSACTIONS_GET, page.transactions, page.metadata);
    },
  });
}
