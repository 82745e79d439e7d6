import { requireClient } from '../auth/context.js';
import { header } from '../auth/headers.js';
import type { Router } from '../router.js';
import { OP_REPORT_VERIFY_POST, reportVerifyBody, reportVerifyResponse } from '../schemas/report-verify.schemas.js';
import type { ApiServices } from '../services/index.js';

/**
 * POST /v1/affordability/report/verify: the API's `afford report verify`.
 * The body is the PDF; the answer says whether the store still gives the
 * same report and, if not, which figures changed and why. A report of
 * another client's customer is not found, as everywhere else.
 */
export function reportVerifyRoutes(router: Router, { affordability }: ApiServices): void {
  router.add({
    method: 'POST',
    url: '/v1/affordability/report/verify',
    operationId: OP_REPORT_VERIFY_POST,
    summary: 'Recompute a report PDF from the store: whether it still matches and, if not, which figures changed and which transactions changed them',
    tag: 'Affordability',
    auth: 'client',
    body: reportVerifyBody,
    bodyContentType: 'application/pdf',
    response: reportVerifyResponse,
    handler: async ({ body, auth, request }) => ({
      operation_id: OP_REPORT_VERIFY_POST,
      data: await affordability.verify(requireClient(auth).clientId, body, header(request.headers, 'x-customer-secret')),
      metadata: {},
    }),
  });
}
