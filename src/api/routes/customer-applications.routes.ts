import { requireClient } from '../auth/context.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import {
  OP_CUSTOMER_APPLICATION_GET,
  applicationIdParams,
  applicationQuery,
  customerApplicationResponse,
} from '../schemas/customer-applications.schemas.js';
import type { ApiServices } from '../services/index.js';

export function customerApplicationsRoutes(router: Router, { applications }: ApiServices): void {
  router.add({
    method: 'GET',
    url: '/core/v1/customer-applications/:application_id',
    operationId: OP_CUSTOMER_APPLICATION_GET,
    summary: 'A customer application of one of the client\'s customers; data.customer_id is the X-Customer-ID to use',
    tag: 'Customer applications',
    auth: 'client',
    params: applicationIdParams,
    query: applicationQuery,
    response: customerApplicationResponse,
    handler: async ({ params, query, auth }) =>
      envelope(OP_CUSTOMER_APPLICATION_GET, await applications.get(requireClient(auth).clientId, params.application_id), applications.periods(query)),
  });
}
