import { CURRENCIES } from '../domain/currencies.js';
import type { CustomerTally } from './fast-customers.js';
import { LIMITS } from '../domain/event-limits.js';
import { OCCURRED_AT_MAX_FUTURE_DAYS, YEAR_MAX, YEAR_MIN } from '../domain/instants.js';
import { modelPairs, UK_V2 } from '../domain/taxonomy.js';

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

/** Thrown inside the scan to give the line up; never escapes. */
const GIVE_UP = { giveUp: true };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

const FIELD = 0x1f;
const NULL_CELL = 0x1e;

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

// Where each string value lies: its slot holds its start and end (the end -1 while unseen).
const S = {
  event_id: 0, type: 1, occurred_at: 2, client_id: 3, customer_id: 4, customer_secret: 5,
  transaction_id: 6, account_id: 7, provider: 8, description: 9, credit_debit_indicator: 10, value: 11, currency: 12,
  date_time: 13, status: 14, l1_slug: 15, l1_confidence: 16, l2_slug: 17, l2_confidence: 18, frequency: 19,
  group_label: 20, posted_date_time: 21, value_date_time: 22, merchant_category_code: 23, name: 24, identifier: 25,
  balance_value: 26, balance_currency: 27,
  // Objects and lists: only whether they were seen.
  data: 28, amount: 29, enrichments: 30, categories: 31, l1: 32, l2: 33, regularity: 34, counterparty: 35,
  running_balance: 36, tags: 37, predicted_date_times: 38,
} as const;
const SLOTS = 39;
const starts = new Int32Array(SLOTS);
const ends = new Int32Array(SLOTS);

/** The strings of the two lists an event may hold (tags, predicted dates), where they lie. */
const listStarts = [new Int32Array(LIMITS.tags), new Int32Array(LIMITS.predictedDates)];
const listEnds = [new Int32Array(LIMITS.tags), new Int32Array(LIMITS.predictedDates)];
const listCounts = [0, 0];
const TAGS = 0;
const DATES = 1;

/** What a key's value is: a string kept in a slot, an object of keys, or a list of strings (all of one shape, for speed). */
interface Value {
  slot: number;
  kind: number;
  fields: Fields | null;
  list: number;
  max: number;
}
const STRING = 0;
const OBJECT = 1;
const LIST = 2;
interface Fields {
  keys: Uint8Array[];
  values: Value[];
}

const str = (slot: number): Value => ({ slot, kind: STRING, fields: null, list: 0, max: 0 });
function fields(spec: Record<string, Value>): Fields {
  return { keys: Object.keys(spec).map(ascii), values: Object.values(spec) };
}
const obj = (slot: number, spec: Record<string, Value>): Value => ({ slot, kind: OBJECT, fields: fields(spec), list: 0, max: 0 });
const list = (slot: number, which: number, max: number): Value => ({ slot, kind: LIST, fields: null, list: which, max });

const MONEY = (value: number, currency: number): Record<string, Value> => ({ value: str(value), currency: str(currency) });
const SLUG = (slug: number, confidence: number): Record<string, Value> => ({ slug: str(slug), confidence: str(confidence) });

// The keys fast-event.ts allows, at the same places; a deletion's data is checked for its one key after the scan.
const ENVELOPE = fields({
  event_id: str(S.event_id), type: str(S.type), occurred_at: str(S.occurred_at), client_id: str(S.client_id),
  customer_id: str(S.customer_id), customer_secret: str(S.customer_secret),
  data: obj(S.data, {
    transaction_id: str(S.transaction_id), account_id: str(S.account_id), provider: str(S.provider),
    description: str(S.description), credit_debit_indicator: str(S.credit_debit_indicator),
    amount: obj(S.amount, MONEY(S.value, S.currency)), date_time: str(S.date_time), status: str(S.status),
    enrichments: obj(S.enrichments, {
      categories: obj(S.categories, { l1: obj(S.l1, SLUG(S.l1_slug, S.l1_confidence)), l2: obj(S.l2, SLUG(S.l2_slug, S.l2_confidence)) }),
      regularity: obj(S.regularity, {
        frequency: str(S.frequency),
        predicted_date_times: list(S.predicted_date_times, DATES, LIMITS.predictedDates),
        group_label: str(S.group_label),
      }),
    }),
    tags: list(S.tags, TAGS, LIMITS.tags),
    posted_date_time: str(S.posted_date_time), value_date_time: str(S.value_date_time),
    merchant_category_code: str(S.merchant_category_code),
    counterparty: obj(S.counterparty, { name: str(S.name), identifier: str(S.identifier) }),
    running_balance: obj(S.running_balance, MONEY(S.balance_value, S.balance_currency)),
  }),
});

/** The slots of a deletion's data other than its transaction id: none may be seen. */
const UPSERT_ONLY = Object.values(S).filter((s) => s > S.transaction_id && s !== S.data);

let b: Uint8Array = new Uint8Array(0);
let p = 0;
let end = 0;

function giveUp(): never {
  throw GIVE_UP;
}

function ws(): void {
  const bytes = b;
  let i = p;
  while (i < end) {
    const c = bytes[i] as number;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  p = i;
}

/** A string at p, ASCII with no escape and no control character: returns its start, and leaves p after its closing quote. */
function string(): number {
  const bytes = b;
  const to = end;
  if (bytes[p] !== QUOTE) giveUp();
  const from = p + 1;
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    if (c === QUOTE) {
      p = i + 1;
      return from;
    }
    if (c < 0x20 || c >= 0x7f || c === BACKSLASH) giveUp();
  }
  return giveUp();
}

function keyIndex(keys: Uint8Array[], from: number, to: number): number {
  const bytes = b;
  const n = to - from;
  outer: for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as Uint8Array;
    if (key.length !== n) continue;
    for (let i = 0; i < n; i++) if (key[i] !== bytes[from + i]) continue outer;
    return k;
  }
  return -1;
}

function object(f: Fields): void {
  if (b[p] !== OPEN) giveUp();
  p++;
  ws();
  if (b[p] === CLOSE) {
    p++;
    return;
  }
  for (;;) {
    ws();
    const from = string();
    const k = keyIndex(f.keys, from, p - 1);
    if (k < 0) giveUp();
    ws();
    if (b[p] !== COLON) giveUp();
    p++;
    ws();
    const v = f.values[k] as Value;
    // A key twice: JSON.parse would keep the last, the check the whole object; simpler to give the line up.
    if (ends[v.slot] !== -1) giveUp();
    if (v.kind === STRING) {
      starts[v.slot] = string();
      ends[v.slot] = p - 1;
    } else if (v.kind === OBJECT) {
      object(v.fields as Fields);
      ends[v.slot] = 0;
    } else {
      strings(v.list, v.max);
      ends[v.slot] = 0;
    }
    ws();
    const c = b[p];
    p++;
    if (c === CLOSE) return;
    if (c !== COMMA) giveUp();
  }
}

function strings(which: number, max: number): void {
  if (b[p] !== OPEN_LIST) giveUp();
  p++;
  ws();
  let n = 0;
  const s = listStarts[which] as Int32Array;
  const e = listEnds[which] as Int32Array;
  if (b[p] === CLOSE_LIST) {
    p++;
  } else {
    for (;;) {
      ws();
      if (n === max) giveUp();
      s[n] = string();
      e[n++] = p - 1;
      ws();
      const c = b[p];
      p++;
      if (c === CLOSE_LIST) break;
      if (c !== COMMA) giveUp();
    }
  }
  listCounts[which] = n;
}

const seen = (slot: number): boolean => ends[slot] !== -1;
const length = (slot: number): number => (ends[slot] as number) - (starts[slot] as number);

function equals(slot: number, text: Uint8Array): boolean {
  const from = starts[slot] as number;
  if (length(slot) !== text.length) return false;
  const bytes = b;
  for (let i = 0; i < text.length; i++) if (bytes[from + i] !== text[i]) return false;
  return true;
}

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

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

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
  if (d > (mo === 2 && leap(y) ? 29 : (DAYS[mo - 1] as number))) giveUp();
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
const STATUSES = [ascii('booked'), ascii('pending'), ascii('declined')];

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
 * position `seq` to `rows`, counts it in `tally`, and returns true; or
 * returns false, having written nothing, when the event is not in the
 * plain form this scan takes.
 */
export function scanRow(bytes: Uint8Array, from: number, to: number, seq: number, rows: RowBytes, tally?: CustomerTally): boolean {
  // Longer lines may not be within the byte limit as the text check counts them: it takes them, or not.
  if (to - from > LIMITS.rawBytes / 3) return false;
  b = bytes;
  p = from;
  end = to;
  ends.fill(-1);
  out = rows;
  const mark = rows.length;
  try {
    ws();
    object(ENVELOPE);
    ws();
    if (p !== end) giveUp();
    const upsert = equals(S.type, TRANSACTION_UPSERTED);
    if (!seen(S.type) || (!upsert && !equals(S.type, TRANSACTION_DELETED))) giveUp();
    if (!seen(S.occurred_at)) giveUp();
    const occurred = instantAt(starts[S.occurred_at] as number, ends[S.occurred_at] as number);
    if (occurred > Date.now() + OCCURRED_AT_MAX_FUTURE_DAYS * 86_400_000) giveUp();
    text(S.event_id, LIMITS.id, 1, true);
    text(S.client_id, LIMITS.id, 1, true);
    text(S.customer_id, LIMITS.id, 1, true);
    text(S.customer_secret, 500, 1, false);
    if (!seen(S.data)) giveUp();
    if (upsert) checkUpsert();
    else {
      text(S.transaction_id, LIMITS.id, 1, true);
      for (const slot of UPSERT_ONLY) if (seen(slot)) giveUp();
    }

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
      cell(S.status, STATUSES[0] as Uint8Array);
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
    const secret = seen(S.customer_secret) ? (starts[S.customer_secret] as number) : -1;
    tally?.addBytes(seq, b, starts[S.client_id] as number, ends[S.client_id] as number, starts[S.customer_id] as number, ends[S.customer_id] as number, secret, ends[S.customer_secret] as number);
    return true;
  } catch (err) {
    if (err !== GIVE_UP) throw err;
    rows.length = mark;
    return false;
  }
}
