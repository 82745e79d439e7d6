import type { IngestEvent, EventType, PaymentData } from '../domain/events.js';

/** Where one raw event came from: enough to find it again and to name it in a dead letter. */
export interface SourceRef {
  source: 'file' | 'kafka' | 'http';
  sourceRef: string;
  lineNumber?: number;
  partition?: number;
  offset?: string;
  key?: string | null;
}

export interface RawItem {
  raw: string;
  ref: SourceRef;
  /** Set when the source already knows the input is bad (not UTF-8, too long): the reason of its dead letter. */
  refused?: string;
  /**
   * The input's UTF-8 bytes, when its source reads bytes (a file): the fast
   * path's worker thread decodes them itself, so that an item only the fast
   * path reads never becomes a string on the writer's thread. Null for an
   * input refused before it was decoded.
   */
  readonly bytes?: Uint8Array | null;
}

export type PreparedItem =
  | { kind: 'event'; event: IngestEvent; raw: string; ref: SourceRef }
  | { kind: 'dead'; raw: string; reason: string; ref: SourceRef };

export interface DeadLetterRecord {
  raw: string;
  reason: string;
  ref: SourceRef;
}

export interface DeletedCustomer {
  clientId: string;
  customerId: string;
  eventId: string;
  occurredAt: string;
}

export interface PaymentUpdate {
  clientId: string;
  customerId: string;
  eventId: string;
  payment: PaymentData;
}

export interface Outcome {
  applied: number;
  skipped: number;
}

/**
 * Every event read is counted exactly once: read = inserted + updated +
 * deleted + skipped + dead letters. A customer deletion counts as deleted, a
 * payment status as updated; byType splits the same events into applied and
 * skipped.
 */
export interface BatchResult {
  read: number;
  inserted: number;
  updated: number;
  deleted: number;
  /** Replays, older versions and deletions of records never seen. */
  skipped: number;
  deadLetters: DeadLetterRecord[];
  byType: Partial<Record<EventType, Outcome>>;
  deletedCustomers: DeletedCustomer[];
  payments: PaymentUpdate[];
  touchedCustomers: { clientId: string; customerId: string }[];
  /** Stored rows the batch deleted or updated (older versions, monthly totals rewritten), which the store counts towards a checkpoint. */
  changedRows: number;
}

export function emptyResult(): BatchResult {
  return {
    read: 0, inserted: 0, updated: 0, deleted: 0, skipped: 0,
    deadLetters: [], byType: {}, deletedCustomers: [], payments: [], touchedCustomers: [], changedRows: 0,
  };
}

export interface IngestSummary {
  read: number;
  inserted: number;
  updated: number;
  deleted: number;
  skipped: number;
  deadLetters: number;
  byType: Partial<Record<EventType, Outcome>>;
}

export function addToSummary(summary: IngestSummary, r: BatchResult): void {
  summary.read += r.read;
  summary.inserted += r.inserted;
  summary.updated += r.updated;
  summary.deleted += r.deleted;
  summary.skipped += r.skipped;
  summary.deadLetters += r.deadLetters.length;
  for (const [type, o] of Object.entries(r.byType) as [EventType, Outcome][]) {
    const sum = (summary.byType[type] ??= { applied: 0, skipped: 0 });
    sum.applied += o.applied;
    sum.skipped += o.skipped;
  }
}

export function emptySummary(): IngestSummary {
  return { read: 0, inserted: 0, updated: 0, deleted: 0, skipped: 0, deadLetters: 0, byType: {} };
}
