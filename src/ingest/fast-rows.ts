import { quickEvent } from './fast-event.js';
import { CustomerTally, type FastCustomer } from './fast-customers.js';
import { RowBytes } from './fast-row-bytes.js';
import { scanRow } from './fast-scan.js';
import { strictText, type PackedTexts } from './packed-texts.js';
import { transactionCells, type TransactionEvent } from './transaction-cells.js';

/**
 * The fast path's rows: each plain transaction event that the hand-written
 * check (fast-event.ts) finds certainly valid becomes its row of
 * stage_transactions, the very cells the schema path stages
 * (transaction-cells.ts) and its customer's secret, written as one text:
 * cells separated by FIELD, a null as NULL_CELL. DuckDB splits them back
 * into columns (sql/queries/ingest/fast-rows.sql), so a batch's rows reach
 * it as a few texts rather than thirty columns, and this work can run on a
 * thread of its own (fast-worker.ts). Everything else goes to the schema.
 * Events given as bytes are scanned as bytes first (fast-scan.ts), and
 * the rows of a piece found so travel as one text, rows separated by
 * ROW_END.
 */

export const FIELD = '\x1f';
export const NULL_CELL = '\x1e';
export const ROW_END = '\x1d';
const ROW_END_BYTE = ROW_END.charCodeAt(0);

/** What the fast path found in a batch (the rows staged whole are fast-settle.ts's FastRows once staged). */
export interface FoundRows {
  /** The rows of stage_transactions of the fast events, each text one or more of them separated by ROW_END; the first cell of a row is its position. */
  rows: string[];
  /** Positions of every other item, in order: they go through the schema. */
  slow: number[];
  /** The rows' customers, tallied as they were found (fast-customers.ts); absent when the rows were put together otherwise. */
  customers?: FastCustomer[];
  /**
   * Where each text's rows go, one span per text of `rows`: absent when
   * every row's first cell is its position already. A Kafka transaction
   * takes the texts found for the chunks it was queued in, each perhaps only
   * in part, and places them so rather than writing each row again.
   */
  spans?: RowSpan[];
}

/** The rows of a text that go in (first cell from `from` to before `to`), and what is added to that cell to give each its position. */
export interface RowSpan {
  from: number;
  to: number;
  shift: number;
}

/** Each row of found rows at its position: the rows as staged, for tests and checks. */
export function* placedRows(found: Pick<FoundRows, 'rows' | 'spans'>): Generator<string> {
  for (const [i, text] of found.rows.entries()) {
    const span = found.spans?.[i];
    for (const row of eachFastRow([text])) {
      if (span === undefined) {
        yield row;
        continue;
      }
      const { seq, tail } = splitFastRow(row);
      if (seq >= span.from && seq < span.to) yield `${seq + span.shift}${tail}`;
    }
  }
}

/** The row of one fast event, or undefined when a cell holds a separator (only possible through a JSON escape). */
export function fastRow(seq: number, e: TransactionEvent, escaped: boolean): string | undefined {
  const cells = transactionCells(seq, e);
  cells.push(e.customer_secret);
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c === null || c === undefined) cells[i] = NULL_CELL;
    else if (escaped && typeof c === 'string' && (c.includes(FIELD) || c.includes(NULL_CELL) || c.includes(ROW_END))) return undefined;
  }
  return cells.join(FIELD);
}

/** The fast rows of a batch's raw texts (null for an item its source refused already), the first of them at position `base`. */
export function fastRows(raws: readonly (string | null)[], base = 0): FoundRows {
  const rows: string[] = [];
  const slow: number[] = [];
  const tally = new CustomerTally();
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i];
    const seq = base + i;
    const row = textRow(raw, seq, tally);
    if (row === undefined) slow.push(seq);
    else rows.push(row);
  }
  return { rows, slow, customers: tally.customers() };
}

/** The row of one event given as text, or undefined for one the schema must see. */
function textRow(raw: string | null | undefined, seq: number, tally: CustomerTally): string | undefined {
  const e = raw === null || raw === undefined ? undefined : quickEvent(raw);
  // A line without a backslash has no escapes, so none of its strings holds a control character.
  const row = e ? fastRow(seq, e as TransactionEvent, (raw as string).includes('\\')) : undefined;
  if (row !== undefined && e) tally.add(seq, e.client_id, e.customer_id, e.customer_secret ?? null);
  return row;
}

const rowText = new TextDecoder();

/**
 * The fast rows of events given as UTF-8 bytes (packed, or each where it
 * lies; null for an item its source refused), the first at position
 * `base`: each is scanned as bytes (fast-scan.ts), and one the scan gives
 * up on is decoded, strictly, and checked as text. The rows the scan found
 * come as one text.
 */
export function fastRowsOfBytes(values: PackedTexts | readonly (Uint8Array | null)[], base = 0): FoundRows {
  const packed = 'bytes' in values ? values : undefined;
  const count = packed ? packed.ends.length : (values as readonly (Uint8Array | null)[]).length;
  const scanned = new RowBytes();
  const tally = new CustomerTally();
  const rows: string[] = [];
  const slow: number[] = [];
  for (let i = 0; i < count; i++) {
    const seq = base + i;
    const v = packed ? packed.bytes : (values as readonly (Uint8Array | null)[])[i];
    if (v === null || v === undefined) {
      slow.push(seq);
      continue;
    }
    const from = packed ? (packed.starts[i] as number) : 0;
    const to = packed ? (packed.ends[i] as number) : v.length;
    const mark = scanned.length;
    if (mark > 0) scanned.byte(ROW_END_BYTE);
    if (scanRow(v, from, to, seq, scanned, tally)) continue;
    scanned.length = mark;
    const row = textRow(strictText(v.subarray(from, to)), seq, tally);
    if (row === undefined) slow.push(seq);
    else rows.push(row);
  }
  if (scanned.length > 0) rows.push(rowText.decode(scanned.bytes.subarray(0, scanned.length)));
  return { rows, slow, customers: tally.customers() };
}

/** Each row of found rows' texts. */
export function* eachFastRow(rows: readonly string[]): Generator<string> {
  for (const text of rows) {
    if (!text.includes(ROW_END)) yield text;
    else yield* text.split(ROW_END);
  }
}

/** A fast row's position and the rest of it (its FIELD first), so that the same row can be given another position. */
export function splitFastRow(row: string): { seq: number; tail: string } {
  const at = row.indexOf(FIELD);
  return { seq: Number(row.slice(0, at)), tail: row.slice(at) };
}
