import { customerKey } from '../domain/customer-ref.js';

/**
 * What the fast path's rows need of their customers, one entry per
 * customer (see sql/queries/ingest/fast-customers.sql, which finds the same
 * in SQL): how many rows it has, the first row (by position in the batch)
 * and its secret, which would create a customer new to the store, and
 * every secret its rows carry. The worker thread tallies them as it finds
 * the rows (CustomerTally), so that the writer need not ask DuckDB; a
 * customer deleted before has only the rows newer than its deletion create
 * it, which only SQL can tell, so the writer asks SQL for a batch with such
 * a customer.
 */
export interface FastCustomer {
  client_id: string;
  customer_id: string;
  events: number;
  /** The first row newer than the customer's deletion (every row, without one): the one that would create the customer. */
  first_seq: number | null;
  first_secret: string | null;
  secrets: string[];
}

function sameBytes(a: Uint8Array, b: Uint8Array, from: number, to: number): boolean {
  if (a.length !== to - from) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[from + i]) return false;
  return true;
}

/** ASCII bytes as text. */
const ascii = (bytes: Uint8Array, from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to));

/** The customers of rows found one by one, each counted as if every row were newer than any deletion. */
export class CustomerTally {
  private readonly byKey = new Map<string, FastCustomer>();
  /** The customer and secret of the last row given as bytes, as those bytes: rows come in runs of one customer. */
  private last: { customer: FastCustomer; client: Uint8Array; id: Uint8Array; secret: Uint8Array | null; secretText: string | null } | undefined;

  add(seq: number, clientId: string, customerId: string, secret: string | null): FastCustomer {
    const key = customerKey(clientId, customerId);
    let c = this.byKey.get(key);
    if (c === undefined) {
      c = { client_id: clientId, customer_id: customerId, events: 0, first_seq: seq, first_secret: secret, secrets: [] };
      this.byKey.set(key, c);
    }
    count(c, seq, secret);
    return c;
  }

  /** A row whose client id, customer id and secret are ASCII bytes [start, end) of `bytes` (the secret's start -1 when it has none). */
  addBytes(seq: number, bytes: Uint8Array, client: number, clientEnd: number, id: number, idEnd: number, secret: number, secretEnd: number): void {
    const last = this.last;
    if (
      last !== undefined &&
      sameBytes(last.id, bytes, id, idEnd) &&
      sameBytes(last.client, bytes, client, clientEnd) &&
      (secret < 0 ? last.secret === null : last.secret !== null && sameBytes(last.secret, bytes, secret, secretEnd))
    ) {
      // Its secret, if any, is among the customer's already.
      count(last.customer, seq, null, last.secretText);
      return;
    }
    const secretText = secret < 0 ? null : ascii(bytes, secret, secretEnd);
    const customer = this.add(seq, ascii(bytes, client, clientEnd), ascii(bytes, id, idEnd), secretText);
    this.last = { customer, client: bytes.slice(client, clientEnd), id: bytes.slice(id, idEnd), secret: secret < 0 ? null : bytes.slice(secret, secretEnd), secretText };
  }

  customers(): FastCustomer[] {
    return [...this.byKey.values()];
  }
}

/**
 * Counts a row of the customer: `secret` is added to its secrets, and is
 * the first secret if the row comes first (`firstSecret` stands in for it
 * there when the row's secret is known to be among them already).
 */
function count(c: FastCustomer, seq: number, secret: string | null, firstSecret: string | null = secret): void {
  c.events++;
  if (c.first_seq === null || seq < c.first_seq) {
    c.first_seq = seq;
    c.first_secret = firstSecret;
  }
  if (secret !== null && !c.secrets.includes(secret)) c.secrets.push(secret);
}

/** The customers of a batch from those of its pieces. */
export function mergeCustomers(parts: readonly (readonly FastCustomer[])[]): FastCustomer[] {
  const byKey = new Map<string, FastCustomer>();
  for (const part of parts) {
    for (const p of part) {
      const key = customerKey(p.client_id, p.customer_id);
      const c = byKey.get(key);
      if (c === undefined) {
        byKey.set(key, { ...p, secrets: [...p.secrets] });
        continue;
      }
      c.events += p.events;
      if (p.first_seq !== null && (c.first_seq === null || p.first_seq < c.first_seq)) {
        c.first_seq = p.first_seq;
        c.first_secret = p.first_secret;
      }
      for (const s of p.secrets) if (!c.secrets.includes(s)) c.secrets.push(s);
    }
  }
  return [...byKey.values()];
}
