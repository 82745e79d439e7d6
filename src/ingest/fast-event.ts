import { isKnownCurrency } from '../domain/currencies.js';
import { LIMITS } from '../domain/event-limits.js';
import { HEADER_UNSAFE, SECRET_MAX_CHARS } from '../domain/header-text.js';
import type { IngestEvent, TransactionData } from '../domain/events.js';
import { daysInMonth, instantProblem, OCCURRED_AT_MAX_FUTURE_DAYS, utcInstant, YEAR_MAX, YEAR_MIN } from '../domain/instants.js';
import { AMOUNT_PATTERN, isPositiveAmount, SIGNED_AMOUNT_PATTERN } from '../domain/amount-text.js';
import { hasPair, UK_V2 } from '../domain/taxonomy.js';

/**
 * A quick check of the two commonest events, transaction upserts and
 * deletions, done by hand because the schema costs more than the JSON parse.
 * The event schema (domain/events.ts) stays the definition of a valid event:
 * this check only says "certainly valid, and here is exactly what the schema
 * would return" or "ask the schema". Anything unusual (an unknown key, a
 * null, a merchant, a field out of bounds) is left to the schema, which also
 * gives the per-field reason of a reject. A test runs both on generated and
 * mutated events and requires the same output.
 */

type Json = Record<string, unknown>;

/** Thrown inside the check to hand the event to the schema; never escapes. */
const ASK_SCHEMA = Symbol('ask the schema');

const LONE_SURROGATE = /\p{Cs}/u;
const CURRENCY = /^[A-Z]{3}$/;

function fail(): never {
  throw ASK_SCHEMA;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(v: unknown, keys: ReadonlySet<string>): Json {
  if (!isObject(v)) fail();
  for (const k in v) if (!keys.has(k)) fail();
  return v;
}

function text(v: unknown, max: number, min = 0): string {
  if (typeof v !== 'string' || v.length > max || v.length < min || LONE_SURROGATE.test(v)) fail();
  return v;
}

const id = (v: unknown): string => text(v, LIMITS.id, 1);
/** Text of 1 to `max` characters that an HTTP header can carry (HEADER_UNSAFE). */
const headerText = (max: number) => (v: unknown): string => {
  const s = text(v, max, 1);
  if (HEADER_UNSAFE.test(s)) fail();
  return s;
};
const headerId = headerText(LIMITS.id);
/** A customer secret: one X-Customer-Secret can carry, as the schema's customerSecretText. */
const customerSecret = headerText(SECRET_MAX_CHARS);
const free = (v: unknown): string => text(v, LIMITS.text);
const code = (v: unknown): string => text(v, LIMITS.code);
const optional = <T>(v: unknown, check: (v: unknown) => T): T | undefined => (v === undefined ? undefined : check(v));
const withDefault = <T>(v: unknown, check: (v: unknown) => T, fallback: T): T => (v === undefined ? fallback : check(v));

/** The number written by `n` ASCII digits of `s` from `at`, or -1. */
function digits(s: string, at: number, n: number): number {
  let x = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    x = x * 10 + d;
  }
  return x;
}

/**
 * The commonest instant, 'YYYY-MM-DDTHH:MM:SSZ', checked as instantProblem
 * does and normalised as the schema does (utcInstant) without a Date; any
 * other form goes through both.
 */
function utcSeconds(v: string): string | undefined {
  if (v.length !== 20 || v[4] !== '-' || v[7] !== '-' || v[10] !== 'T' || v[13] !== ':' || v[16] !== ':' || v[19] !== 'Z') return undefined;
  const [y, mo, d, h, mi, s] = [digits(v, 0, 4), digits(v, 5, 2), digits(v, 8, 2), digits(v, 11, 2), digits(v, 14, 2), digits(v, 17, 2)];
  if (y < YEAR_MIN || y > YEAR_MAX || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return undefined;
  if (d > daysInMonth(y, mo)) return undefined;
  return `${v.slice(0, 19)}.000Z`;
}

function instant(v: unknown): string {
  if (typeof v !== 'string' || v.length > 40) fail();
  const quick = utcSeconds(v);
  if (quick !== undefined) return quick;
  if (instantProblem(v) !== null) fail();
  return utcInstant(v);
}

function currency(v: unknown): string {
  if (typeof v !== 'string' || !CURRENCY.test(v) || !isKnownCurrency(v)) fail();
  return v;
}

function amount(v: unknown, pattern: RegExp): string {
  if (typeof v !== 'string' || v.length > 20 || !pattern.test(v)) fail();
  return v;
}

function oneOf<T extends string>(v: unknown, values: readonly T[]): T {
  if (!values.includes(v as T)) fail();
  return v as T;
}

const MONEY_KEYS = new Set(['value', 'currency']);
const SLUG_KEYS = new Set(['slug', 'confidence']);
const CATEGORY_KEYS = new Set(['l1', 'l2']);
const ENRICHMENT_KEYS = new Set(['categories', 'regularity']);
const REGULARITY_KEYS = new Set(['frequency', 'predicted_date_times', 'group_label']);
const COUNTERPARTY_KEYS = new Set(['name', 'identifier']);
const TRANSACTION_KEYS = new Set([
  'transaction_id', 'account_id', 'provider', 'description', 'credit_debit_indicator', 'amount', 'date_time', 'status',
  'enrichments', 'tags', 'posted_date_time', 'value_date_time', 'merchant_category_code', 'counterparty', 'running_balance',
]);
const DELETED_KEYS = new Set(['transaction_id']);
const ENVELOPE_KEYS = new Set(['event_id', 'type', 'occurred_at', 'client_id', 'customer_id', 'customer_secret', 'data']);

function slug(v: unknown): { slug: string; confidence?: string } {
  const s = object(v, SLUG_KEYS);
  const out: { slug: string; confidence?: string } = { slug: text(s.slug, LIMITS.code, 1) };
  if (typeof s.confidence === 'number') {
    // The schema's number is finite: 1e400 parses to Infinity, which it refuses.
    if (!Number.isFinite(s.confidence)) fail();
    out.confidence = String(s.confidence);
  } else if (s.confidence !== undefined) out.confidence = code(s.confidence);
  return out;
}

function list<T>(v: unknown, max: number, item: (v: unknown) => T): T[] {
  if (!Array.isArray(v) || v.length > max) fail();
  return v.map(item);
}

function transaction(v: unknown): TransactionData {
  const t = object(v, TRANSACTION_KEYS);
  const e = object(t.enrichments, ENRICHMENT_KEYS);
  const c = object(e.categories, CATEGORY_KEYS);
  const l1 = slug(c.l1);
  const l2 = slug(c.l2);
  if (!hasPair(UK_V2, l1.slug, l2.slug)) fail();
  const m = object(t.amount, MONEY_KEYS);
  const value = amount(m.value, AMOUNT_PATTERN);
  if (!isPositiveAmount(value)) fail();
  // Keys in the schema's order, as the schema returns them: regularity is stored as JSON text.
  const out: TransactionData = {
    transaction_id: id(t.transaction_id),
    account_id: id(t.account_id),
    provider: withDefault(t.provider, free, ''),
    description: withDefault(t.description, (d) => text(d, LIMITS.description), ''),
    credit_debit_indicator: oneOf(t.credit_debit_indicator, ['credit', 'debit'] as const),
    amount: { value, currency: currency(m.currency) },
    date_time: instant(t.date_time),
    status: withDefault(t.status, (s) => oneOf(s, ['booked', 'pending', 'declined'] as const), 'booked'),
    enrichments: { categories: { l1, l2 } },
    tags: withDefault(t.tags, (tags) => list(tags, LIMITS.tags, free), []),
  };
  if (e.regularity !== undefined) {
    const r = object(e.regularity, REGULARITY_KEYS);
    const regularity: NonNullable<TransactionData['enrichments']['regularity']> = {
      frequency: code(r.frequency),
      predicted_date_times: withDefault(r.predicted_date_times, (d) => list(d, LIMITS.predictedDates, instant), []),
    };
    if (r.group_label !== undefined) regularity.group_label = free(r.group_label);
    out.enrichments.regularity = regularity;
  }
  const posted = optional(t.posted_date_time, instant);
  if (posted !== undefined) out.posted_date_time = posted;
  const valued = optional(t.value_date_time, instant);
  if (valued !== undefined) out.value_date_time = valued;
  const mcc = optional(t.merchant_category_code, code);
  if (mcc !== undefined) out.merchant_category_code = mcc;
  if (t.counterparty !== undefined) {
    const p = object(t.counterparty, COUNTERPARTY_KEYS);
    const counterparty: NonNullable<TransactionData['counterparty']> = {};
    if (p.name !== undefined) counterparty.name = free(p.name);
    if (p.identifier !== undefined) counterparty.identifier = free(p.identifier);
    out.counterparty = counterparty;
  }
  if (t.running_balance !== undefined) {
    const b = object(t.running_balance, MONEY_KEYS);
    out.running_balance = { value: amount(b.value, SIGNED_AMOUNT_PATTERN), currency: currency(b.currency) };
  }
  return out;
}

/** The event the schema would return for this parsed JSON, when it is a plain transaction event; undefined means "ask the schema". */
export function quickTransactionEvent(json: unknown): IngestEvent | undefined {
  try {
    const v = object(json, ENVELOPE_KEYS);
    if (v.type !== 'transaction.upserted' && v.type !== 'transaction.deleted') return undefined;
    const occurredAt = instant(v.occurred_at);
    if (Date.parse(occurredAt) > Date.now() + OCCURRED_AT_MAX_FUTURE_DAYS * 86_400_000) return undefined;
    const envelope = { event_id: id(v.event_id), occurred_at: occurredAt, client_id: headerId(v.client_id), customer_id: headerId(v.customer_id) };
    const secret = optional(v.customer_secret, customerSecret);
    const withSecret = secret === undefined ? envelope : { ...envelope, customer_secret: secret };
    if (v.type === 'transaction.deleted') {
      const d = object(v.data, DELETED_KEYS);
      return { ...withSecret, type: 'transaction.deleted', data: { transaction_id: id(d.transaction_id) } };
    }
    return { ...withSecret, type: 'transaction.upserted', data: transaction(v.data) };
  } catch (err) {
    if (err === ASK_SCHEMA) return undefined;
    throw err;
  }
}

/** A plain transaction event checked by hand (see quickTransactionEvent); undefined sends it to the schema. */
export function quickEvent(raw: string): IngestEvent | undefined {
  // Short enough, in characters, to be within the byte limit whatever they are; longer ones take the full path.
  if (raw.length > LIMITS.rawBytes / 3) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  return quickTransactionEvent(json);
}
