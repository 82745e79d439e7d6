import type { RefreshService } from '../../tasks/refresh.js';
import { REFRESH_STEPS } from '../../tasks/refresh.js';
import type { Task, WholeStatus } from '../../tasks/tasks.repository.js';
import { requireCustomer } from '../auth/context.js';
import { envelope } from '../envelope.js';
import { apiError } from '../errors.js';
import type { Router } from '../router.js';
import { OP_REFRESH_GET, OP_REFRESH_POST, refreshBody, refreshStartedResponse, refreshTaskResponse, taskIdParams } from '../schemas/refresh.schemas.js';

const TAG = 'Refresh';
/**
 * Milliseconds a client should wait before polling next_url, as the
 * reference API gives it: refreshes here take about as long as ingestion
 * needs to catch up.
 */
const NEXT_URL_DELAY_MS = 2000;

const nextUrl = (taskId: string): string => `/v1/open-banking/refresh/${encodeURIComponent(taskId)}`;

/** A refresh is done or not, whole: only an ingestion is ever partly completed. */
const refreshStatus = (status: Task['status']): WholeStatus => (status === 'PartialCompleted' ? 'Failed' : status);

/**
 * A task as the reference has it: `result` and `has_new_transactions` are left
 * out until they are known (the reference's types allow no null there); while
 * it is pending, where to poll next and how long to wait first.
 */
function taskView(task: Task) {
  return envelope(
    OP_REFRESH_GET,
    {
      task_id: task.taskId,
      provider: task.provider ?? '',
      status: refreshStatus(task.status),
      ...(task.result === null ? {} : { result: task.result }),
      reconnect_required: task.reconnectRequired,
      step: task.step,
      text: REFRESH_STEPS[task.step] ?? '',
    },
    {
      ...(task.hasNewTransactions === null ? {} : { has_new_transactions: task.hasNewTransactions }),
      status: refreshStatus(task.status),
      ...(task.status === 'Pending' ? { next_url: nextUrl(task.taskId), next_url_delay: NEXT_URL_DELAY_MS } : {}),
    },
  );
}

export function refreshRoutes(router: Router, refresh: RefreshService): void {
  router.add({
    method: 'POST',
    url: '/v1/open-banking/refresh',
    operationId: OP_REFRESH_POST,
    summary: "Refresh a customer's data: wait for ingestion to catch up, re-materialise the totals, then send the RefreshCompleted webhook",
    tag: TAG,
    auth: 'customer',
    body: refreshBody,
    response: refreshStartedResponse,
    successStatus: 202,
    handler: async ({ body, auth }) => {
      const { clientId, customerId } = requireCustomer(auth);
      const { task } = await refresh.request(clientId, customerId, body);
      return envelope(
        OP_REFRESH_POST,
        { task_id: task.taskId, provider: task.provider ?? body.provider },
        { status: refreshStatus(task.status), next_url: nextUrl(task.taskId), next_url_delay: NEXT_URL_DELAY_MS },
      );
    },
  });

  router.add({
    method: 'GET',
    url: '/v1/open-banking/refresh/:task_id',
    operationId: OP_REFRESH_GET,
    summary: 'The status of a refresh task',
    tag: TAG,
    auth: 'customer',
    params: taskIdParams,
    response: refreshTaskResponse,
    handler: async ({ params, auth }) => {
      const { clientId, customerId } = requireCustomer(auth);
      const task = await refresh.get(clientId, customerId, params.task_id);
      if (!task) throw apiError('TASK_NOT_FOUND');
      return taskView(task);
    },
  });
}
