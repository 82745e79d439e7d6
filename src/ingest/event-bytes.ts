import { LIMITS } from '../domain/event-limits.js';

/**
 * A plain transaction event's JSON read as its UTF-8 bytes (fast-scan.ts):
 * where each string value it may hold lies, kept in fixed slots, with no
 * JSON.parse, no object and no string. Only the plainest JSON is read
 * (ASCII strings with no escape and no control character, objects and
 * lists of strings, each key once, only the keys fast-event.ts allows at
 * their places); anything else gives the line up (giveUp), and the caller
 * checks it as text instead.
 */

/** Thrown inside a scan to give the line up; never escapes it (see gaveUp). */
const GIVE_UP = { giveUp: true };

export function giveUp(): never {
  throw GIVE_UP;
}

/** Whether `err` is a scan giving its line up, rather than a fault. */
export const gaveUp = (err: unknown): boolean => err === GIVE_UP;

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
const OPEN = 0x7b;
export const CLOSE = 0x7d;
export const OPEN_LIST = 0x5b;
export const CLOSE_LIST = 0x5d;

/** ASCII text as its bytes. */
export const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

// Where each string value lies: its slot holds its start and end (the end -1 while unseen).
export const S = {
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
export const starts = new Int32Array(SLOTS);
export const ends = new Int32Array(SLOTS);

/** The strings of the two lists an event may hold (tags, predicted dates), where they lie. */
export const listStarts = [new Int32Array(LIMITS.tags), new Int32Array(LIMITS.predictedDates)];
export const listEnds = [new Int32Array(LIMITS.tags), new Int32Array(LIMITS.predictedDates)];
export const listCounts = [0, 0];
export const TAGS = 0;
export const DATES = 1;

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
  /**
   * The key that came after each key (and, last, the first key) in the
   * object read before: events of one producer keep one order, so the key
   * looked at first is nearly always the one there.
   */
  after: Int32Array;
}

const str = (slot: number): Value => ({ slot, kind: STRING, fields: null, list: 0, max: 0 });
function fields(spec: Record<string, Value>): Fields {
  const keys = Object.keys(spec).map(ascii);
  return { keys, values: Object.values(spec), after: new Int32Array(keys.length + 1) };
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
export const UPSERT_ONLY = Object.values(S).filter((s) => s > S.transaction_id && s !== S.data);

let b: Uint8Array = new Uint8Array(0);
let p = 0;
let end = 0;

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

/** What a byte is inside a string: 0 a plain character, IN_QUOTE its end, anything else a reason to give the line up (a control character, beyond ASCII, an escape). */
const IN_QUOTE = 1;
const IN_STRING = Uint8Array.from({ length: 256 }, (_, c) => (c === QUOTE ? IN_QUOTE : c < 0x20 || c >= 0x7f || c === BACKSLASH ? 2 : 0));

/** A string at p, ASCII with no escape and no control character: returns its start, and leaves p after its closing quote. */
function string(): number {
  const bytes = b;
  const to = end;
  if (bytes[p] !== QUOTE) giveUp();
  const from = p + 1;
  for (let i = from; i < to; i++) {
    const c = IN_STRING[bytes[i] as number] as number;
    if (c === 0) continue;
    if (c !== IN_QUOTE) giveUp();
    p = i + 1;
    return from;
  }
  return giveUp();
}

const isKey = (key: Uint8Array, from: number, n: number): boolean => {
  if (key.length !== n) return false;
  const bytes = b;
  for (let i = 0; i < n; i++) if (key[i] !== bytes[from + i]) return false;
  return true;
};

/** The index of the key in bytes[from, to), the one that came after `previous` last time looked at first (-1 for the first key). */
function keyIndex(f: Fields, previous: number, from: number, to: number): number {
  const { keys, after } = f;
  const slot = previous < 0 ? keys.length : previous;
  const n = to - from;
  const guess = after[slot] as number;
  if (isKey(keys[guess] as Uint8Array, from, n)) return guess;
  for (let k = 0; k < keys.length; k++) {
    if (k !== guess && isKey(keys[k] as Uint8Array, from, n)) {
      after[slot] = k;
      return k;
    }
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
  for (let previous = -1; ; ) {
    ws();
    const from = string();
    const k = keyIndex(f, previous, from, p - 1);
    if (k < 0) giveUp();
    previous = k;
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

/** Reads the event in bytes[from, to) into the slots, or gives it up. */
export function readEvent(bytes: Uint8Array, from: number, to: number): void {
  b = bytes;
  p = from;
  end = to;
  ends.fill(-1);
  ws();
  object(ENVELOPE);
  ws();
  if (p !== end) giveUp();
}

export const seen = (slot: number): boolean => ends[slot] !== -1;
export const length = (slot: number): number => (ends[slot] as number) - (starts[slot] as number);

export function equals(slot: number, text: Uint8Array): boolean {
  const from = starts[slot] as number;
  if (length(slot) !== text.length) return false;
  const bytes = b;
  for (let i = 0; i < text.length; i++) if (bytes[from + i] !== text[i]) return false;
  return true;
}
