import type { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { BatchResult } from '../ingest/types.js';
import { cliContext, errOut, out, setExitCode, withPipeline } from './context.js';
import { resolveCustomerClient } from './customer-client.js';
import { queryFile } from '../db/script.js';
import { msFromDb } from '../domain/timestamps.js';

export type CustomerDeletionOutcome = { deleted: true; clientId: string; result: BatchResult } | { deleted: false; reason: string };

/**
 * Deletes a customer the way a `customer.deleted` event from Kafka or a file
 * does: through the pipeline, so the rows, the tombstone and the
 * customers.deleted webhook commit together (every pipeline carries the
 * webhook hooks).
 */
export async function deleteCustomer(pipeline: IngestPipeline, customerId: string, client?: string): Promise<CustomerDeletionOutcome> {
  const customer = await resolveCustomerClient(pipeline.store, customerId, client);
  if (!customer.ok) return { deleted: false, reason: customer.reason };
  // Newer than everything stored about them, a record stamped ahead of this clock included: a deletion removes only
  // what it is newer than.
  const [row] = await pipeline.store.read((conn) =>
    queryFile<{ newest: string | null }>(conn, 'queries/customer-newest-version', { client_id: customer.clientId, customer_id: customerId }, { newest: 'text' }));
  const occurredAt = Math.max(Date.now(), row?.newest ? msFromDb(row.newest) + 1 : 0);
  const event = {
    event_id: `cli-delete:${randomUUID()}`,
    type: 'customer.deleted',
    occurred_at: new Date(occurredAt).toISOString(),
    client_id: customer.clientId,
    customer_id: customerId,
    data: {},
  };
  const result = await pipeline.ingest([{ raw: JSON.stringify(event), ref: { source: 'file', sourceRef: 'afford customers delete' } }]);
  if (result.deletedCustomers.length === 0) {
    const reason = result.deadLetters[0]?.reason ?? 'a newer event of this customer came first';
    return { deleted: false, reason: `customer ${customerId} was not deleted: ${reason}` };
  }
  return { deleted: true, clientId: customer.clientId, result };
}

export function registerCustomers(program: Command): void {
  const customers = program.command('customers').description("customers: remove one and all of their data");
  customers
    .command('delete')
    .argument('<customer_id>', 'the customer to remove')
    .option('--client <client_id>', "the customer's client (needed when two clients use the same customer id)")
    .description(
      'remove a customer and every row of their data (transactions, totals, reports, accounts, applications, tasks) in one transaction, then send the customers.deleted webhook',
    )
    .action(async (customerId: string, opts: { client?: string }) => {
      const ctx = cliContext();
      const outcome = await withPipeline(ctx, (pipeline) => deleteCustomer(pipeline, customerId, opts.client));
      if (!outcome.deleted) {
        const line = `afford customers delete: ${outcome.reason}\n`;
        errOut(line);
        setExitCode(2);
        return;
      }
      out(
        `deleted customer ${customerId} (client ${outcome.clientId}); the customers.deleted webhook is in the outbox, sent by the running service\n`,
      );
    });
}
