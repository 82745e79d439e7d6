import { CURRENCIES } from '../domain/currencies.js';
import type { CustomerTally } from './fast-customers.js';
import { LIMITS } from '../domain/event-limits.js';
import { headerSafeBytes, SECRET_MAX_CHARS } from '../domain/header-text.js';
import { daysInMonth, OCCURRED_AT_MAX_FUTURE_DAYS, YEAR_MAX, YEAR_MIN } from '../domain/instants.js';
import { modelPairs, UK_V2 } from '../domain/taxonomy.js';
import { ascii, COLON, DATES, ends, equals, gaveUp, giveUp, length, listCounts, listEnds, listStarts, readEvent, S, seen, starts, TAGS, UPSERT_ONLY } from './event-bytes.js';
import { STATUS_DEFAULT, writeRow, type RowBytes } from './fast-row-bytes.js';

/**
 * The fast path's check of a plain transaction event done on its UTF-8
 * bytes, writing its row straight from them: no JSON.parse, no object, no
 * string. It takes only the plainest form of such an event (ASCII text, no
 * escape, only strings where the schema allows more, instants written
 * 'YYYY-MM-DDTHH:MM:SSZ') and gives up on anything else, which then goes
 * through the check on parsed JSON (fast-event.ts) and the schema as
 * before. Whatever it takes, it writes exactly the row fast-rows.ts would
 * write from the parsed event; a test holds the two equal on generated and
 * mutated lines.
 */

/** The event's bytes, as read into the slots. */
let b: Uint8Array = new Uint8Array(0);

/** A string of `min` to `max` characters (ASCII: bytes are characters); `required` or absent. */
function text(slot: number, max: number, min: number, required: boolean): void {
  if (!seen(slot)) {
    if (required) giveUp();
    return;
  }
  const n = length(slot);
  if (n > max || n < min) giveUp();
}

function digits(at: number, n: number): number {
  let x = 0;
  for (let i = at; i < at + n; i++) {
    const d = (b[i] as number) - 48;
    if (d < 0 || d > 9) giveUp();
    x = x * 10 + d;
  }
  return x;
}

/** An instant written 'YYYY-MM-DDTHH:MM:SSZ' from `at` (anything else gives up): its milliseconds since the epoch. */
function instantAt(at: number, to: number): number {
  if (to - at !== 20 || b[at + 4] !== 0x2d || b[at + 7] !== 0x2d || b[at + 10] !== 0x54 || b[at + 13] !== COLON || b[at + 16] !== COLON || b[at + 19] !== 0x5a) giveUp();
  const y = digits(at, 4);
  const mo = digits(at + 5, 2);
  const d = digits(at + 8, 2);
  const h = digits(at + 11, 2);
  const mi = digits(at + 14, 2);
  const s = digits(at + 17, 2);
  if (y < YEAR_MIN || y > YEAR_MAX || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) giveUp();
  if (d > daysInMonth(y, mo)) giveUp();
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

function instant(slot: number, required: boolean): void {
  if (!seen(slot)) {
    if (required) giveUp();
    return;
  }
  instantAt(starts[slot] as number, ends[slot] as number);
}

/** An amount as AMOUNT_PATTERN (or, `signed`, SIGNED_AMOUNT_PATTERN) says, above zero unless signed. */
function amount(slot: number, signed: boolean): void {
  if (!seen(slot) || length(slot) > 20) giveUp();
  let i = starts[slot] as number;
  const to = ends[slot] as number;
  if (signed && b[i] === 0x2d) i++;
  const first = i;
  let positive = false;
  while (i < to && (b[i] as number) >= 0x30 && (b[i] as number) <= 0x39) {
    if (b[i] !== 0x30) positive = true;
    i++;
  }
  const whole = i - first;
  if (whole === 0 || whole > 9 || (whole > 1 && b[first] === 0x30)) giveUp();
  if (i < to) {
    if (b[i] !== 0x2e) giveUp();
    const fraction = ++i;
    while (i < to && (b[i] as number) >= 0x30 && (b[i] as number) <= 0x39) {
      if (b[i] !== 0x30) positive = true;
      i++;
    }
    if (i !== to || i - fraction < 1 || i - fraction > 2) giveUp();
  }
  if (!signed && !positive) giveUp();
}

const CURRENCY_CODES = new Set([...CURRENCIES].filter((c) => /^[A-Z]{3}$/.test(c)).map((c) => (c.charCodeAt(0) << 16) | (c.charCodeAt(1) << 8) | c.charCodeAt(2)));

function currency(slot: number): void {
  if (!seen(slot) || length(slot) !== 3) giveUp();
  const at = starts[slot] as number;
  if (!CURRENCY_CODES.has(((b[at] as number) << 16) | ((b[at + 1] as number) << 8) | (b[at + 2] as number))) giveUp();
}

function oneOf(slot: number, values: readonly Uint8Array[]): void {
  if (!values.some((v) => equals(slot, v))) giveUp();
}

/** A hash of bytes (FNV-1a), to find a category pair without a string. */
function hash(bytes: Uint8Array, from: number, to: number, h = 0x811c9dc5): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

/** The category pairs of the model, by the hash of their two slugs. */
const PAIRS = new Map<number, (readonly [Uint8Array, Uint8Array])[]>();
for (const { category_l1, category_l2 } of modelPairs(UK_V2)) {
  const l1 = ascii(category_l1);
  const l2 = ascii(category_l2);
  const h = hash(l2, 0, l2.length, hash(l1, 0, l1.length) ^ 0x2f);
  PAIRS.set(h, [...(PAIRS.get(h) ?? []), [l1, l2]]);
}

function pair(): void {
  const h = hash(b, starts[S.l2_slug] as number, ends[S.l2_slug] as number, hash(b, starts[S.l1_slug] as number, ends[S.l1_slug] as number) ^ 0x2f);
  for (const [l1, l2] of PAIRS.get(h) ?? []) if (equals(S.l1_slug, l1) && equals(S.l2_slug, l2)) return;
  giveUp();
}

const TRANSACTION_UPSERTED = ascii('transaction.upserted');
const TRANSACTION_DELETED = ascii('transaction.deleted');
const DIRECTIONS = [ascii('credit'), ascii('debit')];
const STATUSES = [STATUS_DEFAULT, ascii('pending'), ascii('declined')];

/** Checks a scanned upsert's data as fast-event.ts's transaction() does. */
function checkUpsert(): void {
  text(S.transaction_id, LIMITS.id, 1, true);
  text(S.account_id, LIMITS.id, 1, true);
  text(S.provider, LIMITS.text, 0, false);
  text(S.description, LIMITS.description, 0, false);
  if (!seen(S.credit_debit_indicator)) giveUp();
  oneOf(S.credit_debit_indicator, DIRECTIONS);
  if (!seen(S.amount)) giveUp();
  amount(S.value, false);
  currency(S.currency);
  instant(S.date_time, true);
  if (seen(S.status)) oneOf(S.status, STATUSES);
  if (!seen(S.enrichments) || !seen(S.categories) || !seen(S.l1) || !seen(S.l2)) giveUp();
  text(S.l1_slug, LIMITS.code, 1, true);
  text(S.l1_confidence, LIMITS.code, 0, false);
  text(S.l2_slug, LIMITS.code, 1, true);
  text(S.l2_confidence, LIMITS.code, 0, false);
  pair();
  if (seen(S.regularity)) {
    text(S.frequency, LIMITS.code, 0, true);
    const s = listStarts[DATES] as Int32Array;
    const e = listEnds[DATES] as Int32Array;
    if (seen(S.predicted_date_times)) for (let i = 0; i < (listCounts[DATES] as number); i++) instantAt(s[i] as number, e[i] as number);
    else listCounts[DATES] = 0;
    text(S.group_label, LIMITS.text, 0, false);
  }
  if (seen(S.tags)) {
    const s = listStarts[TAGS] as Int32Array;
    const e = listEnds[TAGS] as Int32Array;
    for (let i = 0; i < (listCounts[TAGS] as number); i++) if ((e[i] as number) - (s[i] as number) > LIMITS.text) giveUp();
  }
  instant(S.posted_date_time, false);
  instant(S.value_date_time, false);
  text(S.merchant_category_code, LIMITS.code, 0, false);
  text(S.name, LIMITS.text, 0, false);
  text(S.identifier, LIMITS.text, 0, false);
  if (seen(S.running_balance)) {
    amount(S.balance_value, true);
    currency(S.balance_currency);
  }
}

/**
 * Writes the fast row (fast-rows.ts) of the event in bytes[from, to) at
 * position `seq` to `rows` (fast-row-bytes.ts), counts it in `tally`, and
 * returns true; or returns false, having written nothing, when the event
 * is not in the plain form this scan takes.
 */
export function scanRow(bytes: Uint8Array, from: number, to: number, seq: number, rows: RowBytes, tally?: CustomerTally): boolean {
  // Longer lines may not be within the byte limit as the text check counts them: it takes them, or not.
  if (to - from > LIMITS.rawBytes / 3) return false;
  b = bytes;
  try {
    readEvent(bytes, from, to);
    const upsert = equals(S.type, TRANSACTION_UPSERTED);
    if (!seen(S.type) || (!upsert && !equals(S.type, TRANSACTION_DELETED))) giveUp();
    if (!seen(S.occurred_at)) giveUp();
    const occurred = instantAt(starts[S.occurred_at] as number, ends[S.occurred_at] as number);
    if (occurred > Date.now() + OCCURRED_AT_MAX_FUTURE_DAYS * 86_400_000) giveUp();
    text(S.event_id, LIMITS.id, 1, true);
    text(S.client_id, LIMITS.id, 1, true);
    text(S.customer_id, LIMITS.id, 1, true);
    for (const slot of [S.client_id, S.customer_id]) if (!headerSafeBytes(b, starts[slot] as number, ends[slot] as number)) giveUp();
    text(S.customer_secret, SECRET_MAX_CHARS, 1, false);
    if (seen(S.customer_secret) && !headerSafeBytes(b, starts[S.customer_secret] as number, ends[S.customer_secret] as number)) giveUp();
    if (!seen(S.data)) giveUp();
    if (upsert) checkUpsert();
    else {
      text(S.transaction_id, LIMITS.id, 1, true);
      for (const slot of UPSERT_ONLY) if (seen(slot)) giveUp();
    }

    writeRow(bytes, upsert, seq, rows);
    const secret = seen(S.customer_secret) ? (starts[S.customer_secret] as number) : -1;
    tally?.addBytes(seq, b, starts[S.client_id] as number, ends[S.client_id] as number, starts[S.customer_id] as number, ends[S.customer_id] as number, secret, ends[S.customer_secret] as number);
    return true;
  } catch (err) {
    if (!gaveUp(err)) throw err;
    return false;
  }
}
