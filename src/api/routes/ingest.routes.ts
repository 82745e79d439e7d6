import type { IngestionService } from '../../tasks/ingestion.js';
import { requireClient } from '../auth/context.js';
import { envelope } from '../envelope.js';
import type { Router } from '../router.js';
import { OP_INGEST_TRANSACTIONS_POST, ingestTransactionsBody, ingestTransactionsResponse } from '../schemas/ingest.schemas.js';

export function ingestRoutes(router: Router, ingestion: IngestionService): void {
  router.add({
    method: 'POST',
    url: '/v2/ingest/transactions',
    operationId: OP_INGEST_TRANSACTIONS_POST,
    summary:
      "Push up to 1,000 of the client's transactions, grouped by customer, through the ingest pipeline as a task; the ingestion webhook fires when it is done",
    tag: 'First-party ingestion',
    auth: 'client',
    body: ingestTransactionsBody,
    response: ingestTransactionsResponse,
    successStatus: 202,
    handler: async ({ body, auth }) => {
      const task = await ingestion.submit(requireClient(auth).clientId, body);
      return envelope(OP_INGEST_TRANSACTIONS_POST, { task_id: task.taskId, status: task.status });
    },
  });
}
