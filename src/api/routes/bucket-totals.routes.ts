import { requireCustomer } from '../auth/context.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import { bucketIdParams } from '../schemas/buckets.schemas.js';
import { OP_BUCKET_TOTALS_GET, bucketTotalsQuery, bucketTotalsResponse } from '../schemas/bucket-totals.schemas.js';
import type { ApiServices } from '../services/index.js';

export function bucketTotalsRoutes(router: Router, { bucketTotals }: ApiServices): void {
  router.add({
    method: 'GET',
    url: '/aggregations/v2/buckets/:bucket_id/totals',
    operationId: OP_BUCKET_TOTALS_GET,
    summary: "A customer's totals for a bucket definition, grouped by bucket L1, bucket L2 and month, over whole months",
    tag: 'Bucket totals',
    auth: 'customer',
    params: bucketIdParams,
    query: bucketTotalsQuery,
    response: bucketTotalsResponse,
    handler: async ({ params, query, auth }) => {
      const { clientId, customerId } = requireCustomer(auth);
      const result = await bucketTotals.totals(clientId, customerId, params.bucket_id, query);
      return envelope(OP_BUCKET_TOTALS_GET, result.groups, result.metadata);
    },
  });
}
