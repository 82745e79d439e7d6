import type { FastifyReply } from 'fastify';
import { requireCustomer } from '../auth/context.js';
import type { Router } from '../router.js';
import { OP_AFFORDABILITY_REPORT_GET, affordabilityQuery, affordabilityResponse, insightsQuery } from '../schemas/affordability.schemas.js';
import { OP_AFFORDABILITY_INSIGHTS_GET, insightsResponse } from '../schemas/insights.schemas.js';
import type { ApiServices } from '../services/index.js';

/** The q-value an Accept header gives a media type (exact, type/*, or * / *), 0 when absent. */
function acceptWeight(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let weight = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity > best) {
      best = specificity;
      weight = Number.isFinite(q) ? q : 0;
    }
  }
  return best < 0 ? 0 : weight;
}

/** PDF when ?format=pdf, or when the client prefers application/pdf to JSON; ?format=json always wins. */
export function wantsPdf(format: 'json' | 'pdf' | undefined, accept: string | undefined): boolean {
  if (format) return format === 'pdf';
  if (!accept) return false;
  const pdf = acceptWeight(accept, 'application/pdf');
  return pdf > 0 && pdf > acceptWeight(accept, 'application/json');
}

function attachmentName(customerId: string, from: string, to: string): string {
  return `affordability-${customerId.replace(/[^A-Za-z0-9._-]/g, '_')}-${from}-${to}.pdf`;
}

function sendPdf(reply: FastifyReply, pdf: Buffer, filename: string): Buffer {
  reply.header('content-type', 'application/pdf');
  reply.header('content-disposition', `attachment; filename="${filename}"`);
  return pdf;
}

export function affordabilityRoutes(router: Router, { affordability }: ApiServices): void {
  router.add({
    method: 'GET',
    url: '/v1/affordability/report',
    operationId: OP_AFFORDABILITY_REPORT_GET,
    summary: "A customer's affordability report (income, net income, essential and non-essential expenditure by month), as JSON or PDF",
    tag: 'Affordability',
    auth: 'customer',
    query: affordabilityQuery,
    response: affordabilityResponse,
    handler: async ({ query, auth, request, reply }) => {
      const customer = requireCustomer(auth);
      reply.header('vary', 'Accept');
      if (!wantsPdf(query.format, request.headers.accept)) return affordability.report(customer, query);
      const { pdf, report } = await affordability.pdf(customer, query);
      const m = report.metadata;
      return sendPdf(reply, pdf, attachmentName(m.customer_id, m.month_from, m.month_to));
    },
  });
  router.add({
    method: 'GET',
    url: '/v1/affordability/insights',
    operationId: OP_AFFORDABILITY_INSIGHTS_GET,
    summary: "A customer's underwriting insights: income streams, committed and flexible spending, disposable income and risk signals, each linked to its transactions",
    tag: 'Affordability',
    auth: 'customer',
    query: insightsQuery,
    response: insightsResponse,
    handler: async ({ query, auth }) => affordability.insights(requireCustomer(auth), query),
  });
}
