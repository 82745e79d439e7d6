import { listValue } from '@duckdb/node-api';
import { isoFromDb } from '../domain/timestamps.js';
import type { Columns } from '../db/rows.js';
import { queryFile, runScript } from '../db/script.js';
import type { Store } from '../db/store.js';
import { dbTime } from '../domain/timestamps.js';
import type { AttemptOutcome } from './retry-policy.js';

/** A delivery whose next attempt is due, with what sending it needs. */
export interface DueDelivery {
  delivery_id: string;
  event: string;
  client_id: string;
  customer_id: string | null;
  subscription_id: string;
  body: string;
  attempts: number;
  url: string;
  headers: string;
  secret: string | null;
  active: boolean;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  outcome: AttemptOutcome;
  nextAttemptAt: Date | null;
}

export interface DeliveryLogEntry {
  delivery_id: string;
  event: string;
  client_id: string;
  customer_id: string | null;
  subscription_id: string;
  url: string | null;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AttemptLogEntry {
  delivery_id: string;
  attempt: number;
  started_at: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  outcome: AttemptOutcome;
  next_attempt_at: string | null;
}

const DUE_COLUMNS: Columns<DueDelivery> = {
  delivery_id: 'text', event: 'text', client_id: 'text', customer_id: 'text', subscription_id: 'text', body: 'text',
  attempts: 'number', url: 'text', headers: 'text', secret: 'text', active: 'boolean',
};
const LOG_COLUMNS: Columns<DeliveryLogEntry> = {
  delivery_id: 'text', event: 'text', client_id: 'text', customer_id: 'text', subscription_id: 'text', url: 'text', status: 'text',
  attempts: 'number', last_status_code: 'number', last_error: 'text', next_attempt_at: 'text', created_at: 'text', updated_at: 'text',
};
const ATTEMPT_COLUMNS: Columns<AttemptLogEntry> = {
  delivery_id: 'text', attempt: 'number', started_at: 'text', status_code: 'number', error: 'text', latency_ms: 'number', outcome: 'text',
  next_attempt_at: 'text',
};

const STATUS_AFTER: Record<AttemptOutcome, string> = { delivered: 'delivered', retry: 'pending', failed: 'failed' };

export class DeliveriesRepository {
  constructor(private readonly store: Store) {}

  due(now: Date, limit: number, inFlight: readonly string[]): Promise<DueDelivery[]> {
    return this.store.read((conn) =>
      queryFile<DueDelivery>(conn, 'queries/webhooks/due-deliveries', { now: dbTime(now), limit, in_flight: JSON.stringify(inFlight) }, DUE_COLUMNS),
    );
  }

  /** When the earliest pending delivery not in flight is due; undefined when none is pending. */
  async nextDue(inFlight: readonly string[]): Promise<Date | undefined> {
    const rows = await this.store.read((conn) =>
      queryFile<{ next_attempt_at: string | null }>(conn, 'queries/webhooks/next-due', { in_flight: JSON.stringify(inFlight) }, { next_attempt_at: 'text' }),
    );
    const iso = isoFromDb(rows[0]?.next_attempt_at);
    return iso === null ? undefined : new Date(iso);
  }

  /** The attempt and the delivery's new state in one transaction: a crash leaves both or neither. */
  async record(a: AttemptRecord): Promise<void> {
    await this.store.write((conn) =>
      runScript(conn, 'queries/webhooks/record-attempt', {
        delivery_id: a.deliveryId,
        attempt: a.attempt,
        started_at: dbTime(a.startedAt),
        status_code: a.statusCode,
        error: a.error,
        latency_ms: a.latencyMs,
        outcome: a.outcome,
        status: STATUS_AFTER[a.outcome],
        next_attempt_at: a.nextAttemptAt === null ? null : dbTime(a.nextAttemptAt),
        now: dbTime(),
      }),
    );
  }

  async cancel(deliveryId: string): Promise<void> {
    await this.store.write((conn) => runScript(conn, 'queries/webhooks/cancel-delivery', { delivery_id: deliveryId, now: dbTime() }));
  }

  /** The delivery log, newest first, each delivery with its attempts. */
  async log(options: { onlyFailed?: boolean; limit?: number } = {}): Promise<Array<DeliveryLogEntry & { attemptLog: AttemptLogEntry[] }>> {
    return this.store.read(async (conn) => {
      const deliveries = await queryFile<DeliveryLogEntry>(conn, 'queries/webhooks/list-deliveries', {
        only_failed: options.onlyFailed ?? false,
        limit: options.limit ?? 50,
      }, LOG_COLUMNS);
      if (deliveries.length === 0) return [];
      const attempts = await queryFile<AttemptLogEntry>(conn, 'queries/webhooks/list-attempts', {
        delivery_ids: listValue(deliveries.map((d) => d.delivery_id)),
      }, ATTEMPT_COLUMNS);
      const fix = <T extends { next_attempt_at: string | null }>(row: T): T => ({ ...row, next_attempt_at: isoFromDb(row.next_attempt_at) });
      return deliveries.map((d) => ({
        ...fix(d),
        created_at: isoFromDb(d.created_at) ?? '',
        updated_at: isoFromDb(d.updated_at) ?? '',
        attemptLog: attempts
          .filter((a) => a.delivery_id === d.delivery_id)
          .map((a) => ({ ...fix(a), started_at: isoFromDb(a.started_at) ?? '' })),
      }));
    });
  }
}
