import { ascii, CLOSE, CLOSE_LIST, COMMA, DATES, ends, listCounts, listEnds, listStarts, OPEN_LIST, QUOTE, S, seen, starts, TAGS } from './event-bytes.js';

/**
 * The fast row (fast-rows.ts) of an event read into slots (event-bytes.ts),
 * written as bytes straight from the event's own: its cells in the order
 * of stage_transactions, as transaction-cells.ts gives them for the parsed
 * event, and the customer's secret. Cells are separated as fast-rows.ts
 * separates them.
 */

const FIELD = 0x1f;
const NULL_CELL = 0x1e;

/** A growable buffer of row bytes. */
export class RowBytes {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(c: number): void {
    this.room(1);
    this.bytes[this.length++] = c;
  }

  constant(text: Uint8Array): void {
    this.room(text.length);
    this.bytes.set(text, this.length);
    this.length += text.length;
  }

  number(n: number): void {
    const text = String(n);
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }
}

/** The event's bytes, and the rows being written. */
let b: Uint8Array = new Uint8Array(0);
let out = new RowBytes();

function span(from: number, to: number): void {
  out.room(to - from);
  const o = out.bytes;
  let at = out.length;
  for (let i = from; i < to; i++) o[at++] = b[i] as number;
  out.length = at;
}

/** The next cell: the slot's text, or `fallback` when absent (null when that is null). */
function cell(slot: number, fallback: Uint8Array | null = null): void {
  out.byte(FIELD);
  if (seen(slot)) span(starts[slot] as number, ends[slot] as number);
  else if (fallback === null) out.byte(NULL_CELL);
  else out.constant(fallback);
}

const EMPTY = new Uint8Array(0);
const MILLIS = ascii('.000');
const MILLIS_Z = ascii('.000Z');

/** An instant as the store's timestamp text, 'YYYY-MM-DD HH:MM:SS.000' (or a null cell when absent). */
function timestampCell(slot: number): void {
  out.byte(FIELD);
  if (!seen(slot)) {
    out.byte(NULL_CELL);
    return;
  }
  const at = starts[slot] as number;
  span(at, at + 10);
  out.byte(0x20);
  span(at + 11, at + 19);
  out.constant(MILLIS);
}

function quoted(from: number, to: number): void {
  out.byte(QUOTE);
  span(from, to);
  out.byte(QUOTE);
}

const REGULARITY_HEAD = ascii('{"frequency":');
const PREDICTED = ascii(',"predicted_date_times":[');
const GROUP_LABEL = ascii('],"group_label":');

/** The regularity as the JSON text the schema path stores (keys in the schema's order, instants normalised). */
function regularityCell(): void {
  out.byte(FIELD);
  if (!seen(S.regularity)) {
    out.byte(NULL_CELL);
    return;
  }
  out.constant(REGULARITY_HEAD);
  quoted(starts[S.frequency] as number, ends[S.frequency] as number);
  out.constant(PREDICTED);
  const s = listStarts[DATES] as Int32Array;
  for (let i = 0; i < (listCounts[DATES] as number); i++) {
    if (i > 0) out.byte(COMMA);
    out.byte(QUOTE);
    span(s[i] as number, (s[i] as number) + 19);
    out.constant(MILLIS_Z);
    out.byte(QUOTE);
  }
  if (seen(S.group_label)) {
    out.constant(GROUP_LABEL);
    quoted(starts[S.group_label] as number, ends[S.group_label] as number);
  } else {
    out.byte(CLOSE_LIST);
  }
  out.byte(CLOSE);
}

function tagsCell(): void {
  out.byte(FIELD);
  out.byte(OPEN_LIST);
  const s = listStarts[TAGS] as Int32Array;
  const e = listEnds[TAGS] as Int32Array;
  const n = seen(S.tags) ? (listCounts[TAGS] as number) : 0;
  for (let i = 0; i < n; i++) {
    if (i > 0) out.byte(COMMA);
    quoted(s[i] as number, e[i] as number);
  }
  out.byte(CLOSE_LIST);
}

const UPSERT = ascii('upsert');
const DELETE = ascii('delete');

/** The status of an upsert that gives none, as the schema defaults it. */
export const STATUS_DEFAULT = ascii('booked');

/** Writes the row of the event read from `bytes` (an upsert, or a deletion), at position `seq`, to `rows`. */
export function writeRow(bytes: Uint8Array, upsert: boolean, seq: number, rows: RowBytes): void {
  b = bytes;
  out = rows;
  rows.number(seq);
  out.byte(FIELD);
  out.constant(upsert ? UPSERT : DELETE);
  cell(S.event_id);
  timestampCell(S.occurred_at);
  cell(S.client_id);
  cell(S.customer_id);
  cell(S.transaction_id);
  if (upsert) {
    cell(S.account_id);
    cell(S.provider, EMPTY);
    cell(S.description, EMPTY);
    cell(S.credit_debit_indicator);
    cell(S.value);
    cell(S.currency);
    timestampCell(S.date_time);
    cell(S.status, STATUS_DEFAULT);
    cell(S.l1_slug);
    cell(S.l1_confidence);
    cell(S.l2_slug);
    cell(S.l2_confidence);
    regularityCell();
    // The merchant, which this scan never takes.
    out.byte(FIELD);
    out.byte(NULL_CELL);
    tagsCell();
    timestampCell(S.posted_date_time);
    timestampCell(S.value_date_time);
    cell(S.merchant_category_code);
    cell(S.name);
    cell(S.identifier);
    cell(S.balance_value);
    cell(S.balance_currency);
  } else {
    for (let i = 0; i < 22; i++) {
      out.byte(FIELD);
      out.byte(NULL_CELL);
    }
  }
  cell(S.customer_secret);
}
