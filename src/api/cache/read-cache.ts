import { LRUCache } from 'lru-cache';
import type { DataChange } from '../../db/data-changes.js';
import { customerKey } from '../../domain/customer-ref.js';

/** Whose data an answer or a record is made of: a client's (its definitions, its credentials), and a customer's when given. */
export interface CacheScope {
  clientId: string;
  customerId?: string;
}

/** A response as sent: the bytes and the headers the handler set. */
export interface CachedAnswer {
  body: Buffer;
  headers: readonly (readonly [string, string])[];
}

interface Stamped<T> {
  value: T;
  scope: CacheScope;
  /** The sequence number when the read began: the answer holds for changes announced before it, none after. */
  readFrom: number;
}

/** Customers' invalidation marks kept one by one; older ones fold into one floor (so memory stays bounded and nothing is lost). */
const CUSTOMER_MARKS = 200_000;
/** Auth lookups (clients, customers) kept at most. */
const RECORDS = 100_000;
/** An entry's bookkeeping beside its bytes, roughly. */
const ENTRY_OVERHEAD = 256;

/**
 * Answers of customer reads, and the auth records they need, kept until a
 * committed write changes the data they are made of.
 *
 * Validity is by sequence numbers rather than by deleting entries: each
 * announced change takes the next number and marks what it touched (a
 * customer, a client, or everything); an entry records the number current
 * when its read began, and is served only while no mark above that number
 * covers it. So a read that ran across a commit (and may have seen the data
 * before it) is never served after that commit's announcement, however its
 * finish and the announcement interleave.
 *
 * Answers are bounded by bytes (least recently used go first); the
 * per-customer marks by count, with evicted marks folded into a floor that
 * applies to every customer.
 */
export class ReadCache {
  private seq = 0;
  private everything = 0;
  private floor = 0;
  private readonly clientMarks = new Map<string, number>();
  private readonly customerMarks: LRUCache<string, number>;
  private readonly answers: LRUCache<string, Stamped<CachedAnswer>> | undefined;
  private readonly records: LRUCache<string, Stamped<unknown>> | undefined;

  /** `available` says whether answers may be served at all (not once the store has closed: the service is stopping). */
  constructor(maxBytes: number, private readonly available: () => boolean = () => true) {
    this.customerMarks = new LRUCache<string, number>({
      max: CUSTOMER_MARKS,
      dispose: (mark, _key, reason) => {
        if (reason === 'evict') this.floor = Math.max(this.floor, mark);
      },
    });
    if (maxBytes <= 0) return;
    this.answers = new LRUCache<string, Stamped<CachedAnswer>>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => entry.value.body.length + key.length * 2 + ENTRY_OVERHEAD,
    });
    this.records = new LRUCache<string, Stamped<unknown>>({ max: RECORDS });
  }

  get enabled(): boolean {
    return this.answers !== undefined;
  }

  /** Taken before a read starts; handed back with what it produced. */
  begin(): number {
    return this.seq;
  }

  answer(key: string): CachedAnswer | undefined {
    return this.available() ? this.fresh(this.answers, key) : undefined;
  }

  keepAnswer(key: string, scope: CacheScope, readFrom: number, answer: CachedAnswer): void {
    if (this.valid(scope, readFrom)) this.answers?.set(key, { value: answer, scope, readFrom });
  }

  record<T>(key: string): T | undefined {
    return this.available() ? (this.fresh(this.records, key) as T | undefined) : undefined;
  }

  keepRecord<T>(key: string, scope: CacheScope, readFrom: number, value: T): void {
    if (this.valid(scope, readFrom)) this.records?.set(key, { value, scope, readFrom });
  }

  /** Called after a write has committed: what it changed is read again from the store. */
  invalidate(change: DataChange): void {
    const mark = ++this.seq;
    if (change.kind === 'everything') this.everything = mark;
    else if (change.kind === 'clients') for (const id of change.clientIds) this.clientMarks.set(id, mark);
    else for (const c of change.customers) this.customerMarks.set(customerKey(c.clientId, c.customerId), mark);
  }

  /** Bytes of answers held, for the bench and tests. */
  get size(): number {
    return this.answers?.calculatedSize ?? 0;
  }

  private fresh<T>(cache: LRUCache<string, Stamped<T>> | undefined, key: string): T | undefined {
    const entry = cache?.get(key);
    if (!entry) return undefined;
    if (this.valid(entry.scope, entry.readFrom)) return entry.value;
    cache?.delete(key);
    return undefined;
  }

  private valid(scope: CacheScope, readFrom: number): boolean {
    if (readFrom < this.everything || readFrom < this.floor) return false;
    if (readFrom < (this.clientMarks.get(scope.clientId) ?? 0)) return false;
    if (scope.customerId === undefined) return true;
    return readFrom >= (this.customerMarks.get(customerKey(scope.clientId, scope.customerId)) ?? 0);
  }
}
