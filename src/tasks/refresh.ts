import { randomUUID } from 'node:crypto';
import { announceDataChange } from '../db/data-changes.js';
import { queryFile, runScript } from '../db/script.js';
import type { Store } from '../db/store.js';
import type { Logger } from '../logger.js';
import { enqueueWebhook } from '../webhooks/outbox.js';
import { refreshCompletedMessage } from '../webhooks/payloads.js';
import { alreadyCaughtUp, waitUntilCaughtUp, type CatchUpCheck, type CatchUpProbe } from './catch-up.js';
import { TasksRepository, taskQueries, type Task } from './tasks.repository.js';
import { affordError } from '../domain/errors.js';

/** A second request for the same customer and provider within this window gets the earlier task. */
export const REFRESH_REUSE_MS = 60 * 60 * 1000;

/** The steps a refresh reports, as the reference API names them (docs/interface.md, Tasks). */
export const REFRESH_STEPS: Readonly<Record<number, string>> = {
  1: 'Fetching access token',
  2: 'Fetching accounts',
  3: 'Fetching balances and transactions',
  4: 'Completed',
};

export interface RefreshSettings {
  /** How long to wait for ingestion to catch up before failing with internal_timeout. */
  timeoutMs: number;
  pollMs?: number;
}

export interface RefreshDeps {
  store: Store;
  logger: Logger;
  settings: RefreshSettings;
  /** How to tell that ingestion has caught up; without one the store always has. */
  catchUp?: CatchUpProbe;
  /** Called after a task's webhook has been committed to the outbox (wakes the delivery worker). */
  onEnqueued?: () => void;
}

export interface RefreshRequest {
  provider: string;
  from?: string;
  to?: string;
}

/**
 * A refresh here fetches from no bank: the customer's data arrives through
 * ingestion. So a refresh waits until ingestion has caught up with
 * everything produced before the request, re-materialises the customer's
 * monthly totals, and tells whether transactions arrived since the previous
 * completed refresh. Its end, its totals and its RefreshCompleted webhook
 * commit in one transaction.
 */
export class RefreshService {
  private readonly tasks: TasksRepository;
  private readonly log: Logger;
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly deps: RefreshDeps) {
    this.tasks = new TasksRepository(deps.store);
    this.log = deps.logger.child({ component: 'refresh' });
  }

  /** Starts a refresh, or returns the customer's earlier one with this provider from within the hour. */
  async request(clientId: string, customerId: string, request: RefreshRequest): Promise<{ task: Task; created: boolean }> {
    // The snapshot comes before anything else, so that it covers all that was produced before the request.
    const check = await (this.deps.catchUp ?? alreadyCaughtUp)();
    const now = new Date();
    const outcome = await this.deps.store.write(async (conn) => {
      const earlier = await taskQueries.recentRefresh(conn, clientId, customerId, request.provider, new Date(now.getTime() - REFRESH_REUSE_MS));
      const taskId = earlier ?? randomUUID();
      if (!earlier) {
        await taskQueries.insert(
          conn,
          {
            taskId,
            taskType: 'refresh',
            clientId,
            customerId,
            provider: request.provider,
            status: 'Pending',
            result: null,
            step: 1,
            hasNewTransactions: null,
            detail: { from: request.from ?? null, to: request.to ?? null },
          },
          now,
        );
      }
      const task = await taskQueries.get(conn, taskId);
      if (!task) throw affordError('REFRESH_TASK_VANISHED', taskId);
      return { task, created: earlier === undefined };
    });
    const log = this.log.child({ task_id: outcome.task.taskId, customer_id: customerId, client_id: clientId });
    if (outcome.created) {
      log.info({ provider: request.provider }, 'refresh requested');
      this.launch(outcome.task.taskId, check);
    } else {
      log.info({ status: outcome.task.status }, 'refresh requested again within the hour: returning the earlier task');
    }
    return outcome;
  }

  /** The task, if it is a refresh of this client's customer; anything else is as if it did not exist. */
  async get(clientId: string, customerId: string, taskId: string): Promise<Task | undefined> {
    const task = await this.tasks.get(taskId);
    if (!task || task.taskType !== 'refresh' || task.clientId !== clientId || task.customerId !== customerId) return undefined;
    return task;
  }

  /** Runs again the refreshes that a stop or a crash left pending. */
  async resumePending(): Promise<number> {
    const pending = await this.tasks.pendingRefreshes();
    for (const taskId of pending) this.launch(taskId, await (this.deps.catchUp ?? alreadyCaughtUp)());
    if (pending.length > 0) this.log.info({ tasks: pending.length }, 'resumed pending refreshes');
    return pending.length;
  }

  /** Resolves when the task's run in this process has ended (at once when none is running). */
  async settled(taskId: string): Promise<void> {
    await this.running.get(taskId);
  }

  /** Stops waiting: unfinished refreshes stay Pending and are resumed at the next start. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.running.values());
  }

  private launch(taskId: string, check: CatchUpCheck): void {
    if (this.running.has(taskId) || this.stopping.signal.aborted) return;
    const run = this.run(taskId, check).finally(() => this.running.delete(taskId));
    this.running.set(taskId, run);
  }

  private async run(taskId: string, check: CatchUpCheck): Promise<void> {
    const log = this.log.child({ task_id: taskId });
    const { timeoutMs, pollMs = 50 } = this.deps.settings;
    try {
      await this.tasks.setStep(taskId, 3);
      const caughtUp = await waitUntilCaughtUp(check, Date.now() + timeoutMs, pollMs, this.stopping.signal);
      if (this.stopping.signal.aborted) return;
      if (caughtUp) await this.finish(taskId, 'success');
      else await this.finish(taskId, 'internal_timeout');
    } catch (err) {
      if (this.stopping.signal.aborted) return;
      log.error({ err }, 'refresh failed');
      await this.finish(taskId, 'internal_error').catch((e: unknown) => log.error({ err: e }, 'could not record the failed refresh'));
    }
  }

  /** The task's end, the customer's re-materialised totals and the webhook, in one transaction. */
  private async finish(taskId: string, result: 'success' | 'internal_timeout' | 'internal_error'): Promise<void> {
    const ok = result === 'success';
    const finished = await this.deps.store.write(async (conn) => {
      const task = await taskQueries.get(conn, taskId);
      if (!task?.customerId || task.status !== 'Pending') return undefined; // its customer was deleted meanwhile
      let hasNew = false;
      let watermark: string | null = null;
      if (ok) {
        const customer = { client_id: task.clientId, customer_id: task.customerId };
        await runScript(conn, 'queries/tasks/rematerialise-customer', customer);
        const [seen] = await queryFile<{ watermark: string | null; has_new_transactions: boolean }>(conn, 'queries/tasks/refresh-watermark', {
          ...customer,
          task_id: taskId,
        }, { watermark: 'text', has_new_transactions: 'boolean' });
        hasNew = seen?.has_new_transactions === true;
        watermark = seen?.watermark ?? null;
      }
      const status = ok ? 'Completed' : 'Failed';
      await taskQueries.finish(conn, { taskId, status, result, step: ok ? 4 : task.step, hasNewTransactions: ok ? hasNew : null, watermark });
      const queued = await enqueueWebhook(
        conn,
        refreshCompletedMessage({
          taskId,
          clientId: task.clientId,
          customerId: task.customerId,
          provider: task.provider ?? '',
          status,
          result,
          hasNewTransactions: hasNew,
          reconnectRequired: false,
        }),
      );
      return { customer_id: task.customerId, client_id: task.clientId, status, has_new: hasNew, deliveries: queued.length };
    });
    if (!finished) return;
    // The customer's totals were re-materialised: cached answers of theirs go.
    announceDataChange(this.deps.store, { kind: 'customers', customers: [{ clientId: finished.client_id, customerId: finished.customer_id }] });
    this.log.info({ task_id: taskId, ...finished, result }, 'refresh finished');
    this.deps.onEnqueued?.();
  }
}
