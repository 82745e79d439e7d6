import { requireCustomer } from '../auth/context.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import { OP_CATEGORY_TOTALS_GET, categoryTotalsQuery, categoryTotalsResponse } from '../schemas/category-totals.schemas.js';
import type { ApiServices } from '../services/index.js';

export function categoryTotalsRoutes(router: Router, { categoryTotals }: ApiServices): void {
  router.add({
    method: 'GET',
    url: '/aggregations/v2/totals/categories',
    operationId: OP_CATEGORY_TOTALS_GET,
    summary: "A customer's totals per category and currency, with monthly figures, the monthly average and the population variance",
    tag: 'Category totals',
    auth: 'customer',
    query: categoryTotalsQuery,
    response: categoryTotalsResponse,
    handler: async ({ query, auth }) => {
      const result = await categoryTotals.totals(requireCustomer(auth), query);
      return envelope(OP_CATEGORY_TOTALS_GET, result.entries, result.metadata);
    },
  });
}
