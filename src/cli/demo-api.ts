import { writeFile } from 'node:fs/promises';
import { renderReportPdf } from '../reports/report-pdf.js';
import { buildReportWithTransactions } from '../reports/report-service.js';
import { ClientsService } from '../clients/clients.service.js';
import { ClientsRepository } from '../clients/clients.repository.js';
import type { Store } from '../db/store.js';
import { DEFAULT_RANGE_MONTHS, lastCompleteMonths } from '../domain/months.js';
import { busiestHostedCustomer } from './demo-customer.js';
import { signedPdf } from '../reports/report-signature.js';

const DEMO_CLIENT_NAME = 'afford demo';

/**
 * Gives the data client of the busiest hosted demo customer an API client
 * (a new secret on every run: only its hash is kept) and returns the curl
 * lines that fetch a token, then that customer's totals.
 */
export async function demoCurlLines(store: Store, address: string): Promise<string[]> {
  const customer = await busiestHostedCustomer(store, lastCompleteMonths(DEFAULT_RANGE_MONTHS));
  if (!customer) return ['no hosted customer with transactions in the last 6 complete months: nothing to show'];
  const clients = new ClientsService(new ClientsRepository(store));
  const issued = (await clients.rotateSecret(customer.clientId, DEMO_CLIENT_NAME)) ?? (await clients.create(DEMO_CLIENT_NAME, customer.clientId));
  const headers = `-H "Authorization: Bearer $TOKEN" -H 'X-Client-ID: ${issued.client_id}' -H 'X-Customer-ID: ${customer.customerId}'`;
  return [
    `# a token for API client ${issued.client_id} (secret shown once; \`afford clients create --id ${issued.client_id} --name N --rotate\` makes a new one)`,
    `TOKEN=$(curl -s -X POST ${address}/v1/oauth/token -u '${issued.client_id}:${issued.client_secret}' -H 'X-Client-Id: ${issued.client_id}' -d grant_type=client_credentials | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `# customer ${customer.customerId}: core-dashboard totals by bucket over the last 6 complete months, then by bucket and month`,
    `curl -s '${address}/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1' ${headers}`,
    `curl -s '${address}/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1,month' ${headers}`,
    `# what an underwriter reads first: income streams, commitments, disposable income and risk signals, each with its transactions link`,
    `curl -s '${address}/v1/affordability/insights' ${headers}`,
    `# follow any _links.transactions path the same way, e.g. the first page of transactions:`,
    `curl -s '${address}/financial/v2/transactions?page_size=5' ${headers}`,
  ];
}

/** Renders the 12-month affordability report of the busiest hosted customer, the one the curl lines use. */
export async function writeSamplePdf(store: Store, file: string): Promise<{ customerId: string; file: string } | undefined> {
  const range = lastCompleteMonths(12);
  const customer = await busiestHostedCustomer(store, lastCompleteMonths(DEFAULT_RANGE_MONTHS));
  if (!customer) return undefined;
  const input = await buildReportWithTransactions(store, { ...customer, range, currency: 'GBP' });
  if (!input) return undefined;
  await writeFile(file, await signedPdf(store, await renderReportPdf(input)));
  return { customerId: customer.customerId, file };
}
