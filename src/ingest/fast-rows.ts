import { quickEvent } from './fast-event.js';
import { transactionCells, type TransactionEvent } from './transaction-cells.js';

/**
 * The fast path's rows: each plain transaction event that the hand-written
 * check (fast-event.ts) finds certainly valid becomes its row of
 * stage_transactions, the very cells the schema path stages
 * (transaction-cells.ts) and its customer's secret, written as one text:
 * cells separated by FIELD, a null as NULL_CELL. DuckDB splits them back
 * into columns (sql/queries/ingest/fast-rows.sql), so a batch's rows reach
 * it as one text column rather than thirty, and this work can run on a
 * thread of its own (fast-worker.ts). Everything else goes to the schema.
 */

export const FIELD = '\x1f';
export const NULL_CELL = '\x1e';

/** What the fast path found in a batch (the rows staged whole are fast-settle.ts's FastRows once staged). */
export interface FoundRows {
  /** One row of stage_transactions per fast event, in the batch's order; the first cell is its position. */
  rows: string[];
  /** Positions of every other item, in order: they go through the schema. */
  slow: number[];
}

/** The row of one fast event, or undefined when a cell holds a separator (only possible through a JSON escape). */
export function fastRow(seq: number, e: TransactionEvent, escaped: boolean): string | undefined {
  const cells = transactionCells(seq, e);
  cells.push(e.customer_secret);
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c === null || c === undefined) cells[i] = NULL_CELL;
    else if (escaped && typeof c === 'string' && (c.includes(FIELD) || c.includes(NULL_CELL))) return undefined;
  }
  return cells.join(FIELD);
}

/** The fast rows of a batch's raw texts (null for an item its source refused already), the first of them at position `base`. */
export function fastRows(raws: readonly (string | null)[], base = 0): FoundRows {
  const rows: string[] = [];
  const slow: number[] = [];
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i];
    const seq = base + i;
    const e = raw === null || raw === undefined ? undefined : quickEvent(raw);
    // A line without a backslash has no escapes, so none of its strings holds a control character.
    const row = e ? fastRow(seq, e as TransactionEvent, (raw as string).includes('\\')) : undefined;
    if (row === undefined) slow.push(seq);
    else rows.push(row);
  }
  return { rows, slow };
}

/** A fast row's position and the rest of it (its FIELD first), so that the same row can be given another position. */
export function splitFastRow(row: string): { seq: number; tail: string } {
  const at = row.indexOf(FIELD);
  return { seq: Number(row.slice(0, at)), tail: row.slice(at) };
}
