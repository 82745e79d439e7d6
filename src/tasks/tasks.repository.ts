import type { DuckDBConnection } from '@duckdb/node-api';
import { z } from 'zod';
import { isoFromDb } from '../domain/timestamps.js';
import type { Columns } from '../db/rows.js';
import { queryFile, runScript } from '../db/script.js';
import type { Store } from '../db/store.js';
import { dbTime } from '../domain/timestamps.js';

export type TaskType = 'refresh' | 'ingestion';
/** PartialCompleted: an ingestion some of whose customers' events were written and some not (the reference's overall status). */
export type TaskStatus = 'Pending' | 'Completed' | 'PartialCompleted' | 'Failed';
/** The status of what is done or not as a whole: a refresh, or one customer's part of an ingestion. */
export type WholeStatus = Exclude<TaskStatus, 'PartialCompleted'>;

export interface Task {
  taskId: string;
  taskType: TaskType;
  clientId: string;
  customerId: string | null;
  provider: string | null;
  status: TaskStatus;
  /** `success`, or a code_id of the interface; null while pending. */
  result: string | null;
  step: number;
  hasNewTransactions: boolean | null;
  reconnectRequired: boolean;
  detail: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

interface TaskRow {
  task_id: string;
  task_type: TaskType;
  client_id: string;
  customer_id: string | null;
  provider: string | null;
  status: TaskStatus;
  result: string | null;
  step: number;
  has_new_transactions: boolean | null;
  reconnect_required: boolean;
  detail: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

const TASK_COLUMNS: Columns<TaskRow> = {
  task_id: 'text', task_type: 'text', client_id: 'text', customer_id: 'text', provider: 'text', status: 'text', result: 'text',
  step: 'number', has_new_transactions: 'boolean', reconnect_required: 'boolean', detail: 'text', created_at: 'text', updated_at: 'text',
  completed_at: 'text',
};

const detailJson = z.record(z.string(), z.unknown());

function toTask(row: TaskRow): Task {
  return {
    taskId: row.task_id,
    taskType: row.task_type,
    clientId: row.client_id,
    customerId: row.customer_id,
    provider: row.provider,
    status: row.status,
    result: row.result,
    step: row.step,
    hasNewTransactions: row.has_new_transactions,
    reconnectRequired: row.reconnect_required,
    detail: detailJson.parse(JSON.parse(row.detail)),
    createdAt: isoFromDb(row.created_at) ?? '',
    updatedAt: isoFromDb(row.updated_at) ?? '',
    completedAt: isoFromDb(row.completed_at),
  };
}

/** A task as first written: the stored fields less those the store sets (timestamps, reconnect_required). */
export type NewTask = Omit<Task, 'reconnectRequired' | 'createdAt' | 'updatedAt' | 'completedAt'>;

export interface TaskFinish {
  taskId: string;
  status: 'Completed' | 'Failed';
  result: string;
  step: number;
  hasNewTransactions: boolean | null;
  watermark: string | null;
}

/**
 * Task rows. The functions that take a connection run inside a caller's
 * transaction (a task's end commits with its webhook and its data); the
 * methods of TasksRepository open their own.
 */
export const taskQueries = {
  async insert(conn: DuckDBConnection, task: NewTask, now: Date = new Date()): Promise<void> {
    await runScript(conn, 'queries/tasks/insert-task', {
      task_id: task.taskId,
      task_type: task.taskType,
      client_id: task.clientId,
      customer_id: task.customerId,
      provider: task.provider,
      status: task.status,
      result: task.result,
      step: task.step,
      has_new_transactions: task.hasNewTransactions,
      detail: JSON.stringify(task.detail),
      now: dbTime(now),
      completed_at: task.status === 'Pending' ? null : dbTime(now),
    });
  },

  async get(conn: DuckDBConnection, taskId: string): Promise<Task | undefined> {
    const [row] = await queryFile<TaskRow>(conn, 'queries/tasks/get-task', { task_id: taskId }, TASK_COLUMNS);
    return row ? toTask(row) : undefined;
  },

  /** The earlier refresh that a new request within the window gets back. */
  async recentRefresh(conn: DuckDBConnection, clientId: string, customerId: string, provider: string, since: Date): Promise<string | undefined> {
    const [row] = await queryFile<{ task_id: string }>(conn, 'queries/tasks/recent-refresh', {
      client_id: clientId,
      customer_id: customerId,
      provider,
      since: dbTime(since),
    }, { task_id: 'text' });
    return row?.task_id;
  },

  /** False when the task is gone (its customer was deleted) or had already finished. */
  async finish(conn: DuckDBConnection, f: TaskFinish, now: Date = new Date()): Promise<boolean> {
    const rows = await queryFile(conn, 'queries/tasks/finish-task', {
      task_id: f.taskId,
      status: f.status,
      result: f.result,
      step: f.step,
      has_new_transactions: f.hasNewTransactions,
      watermark: f.watermark,
      now: dbTime(now),
    });
    return rows.length > 0;
  },
};

export class TasksRepository {
  constructor(private readonly store: Store) {}

  get(taskId: string): Promise<Task | undefined> {
    return this.store.read((conn) => taskQueries.get(conn, taskId));
  }

  async setStep(taskId: string, step: number): Promise<void> {
    await this.store.write((conn) => runScript(conn, 'queries/tasks/set-step', { task_id: taskId, step, now: dbTime() }));
  }

  async pendingRefreshes(): Promise<string[]> {
    const rows = await this.store.read((conn) => queryFile<{ task_id: string }>(conn, 'queries/tasks/pending-refreshes', {}, { task_id: 'text' }));
    return rows.map((r) => r.task_id);
  }
}
