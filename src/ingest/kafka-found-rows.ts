import { mergeCustomers, type FastCustomer } from './fast-customers.js';
import type { FoundRows, RowSpan } from './fast-rows.js';
import { fastValidator } from './fast-validator.js';
import type { SourceMessage } from './kafka-types.js';

/**
 * The fast rows of Kafka messages, found while they wait in the queue: a
 * chunk at a time as it is queued (findAhead), then placed for the
 * transaction the chunks end up in, however the consumer merged them
 * (foundAhead).
 */

/** The fast rows found for a chunk handed to findAhead: its texts as found, positions the chunk's own. */
interface ChunkRows {
  /** Settles once they are found. */
  found: Promise<void>;
  texts: readonly string[];
  /** 1 at the position of each message the schema must see. */
  slow: Uint8Array;
  /** The rows' customers, tallied as they were found (fast-customers.ts). */
  customers?: readonly FastCustomer[];
}

/** What findAhead keeps on a message it handed over: its chunk's rows, and its position in that chunk. */
const CHUNK_ROWS = Symbol('chunk rows');
const AT = Symbol('position in chunk');
interface HandedMessage extends SourceMessage {
  [CHUNK_ROWS]?: ChunkRows;
  [AT]?: number;
}

/**
 * Starts finding the fast rows of a queued chunk on the fast path's worker
 * thread, from the messages' bytes. The consumer may merge or split queued
 * chunks into transactions, so each message keeps, in two properties of
 * this module's own, the rows found for its chunk and its position in it;
 * a transaction then takes each chunk's texts as they were found, with a
 * span that places the rows of its messages (foundAhead), rather than
 * having each row cut out and written again here.
 */
export function findAhead(chunk: { readonly messages: readonly SourceMessage[] }): void {
  const messages = chunk.messages as readonly HandedMessage[];
  const rows: ChunkRows = { found: Promise.resolve(), texts: [], slow: new Uint8Array(messages.length) };
  rows.found = fastValidator.bytes(messages.map((m) => m.value)).then(({ rows: texts, slow, customers }) => {
    rows.texts = texts;
    rows.customers = customers;
    for (const at of slow) rows.slow[at] = 1;
  });
  messages.forEach((m, at) => {
    m[CHUNK_ROWS] = rows;
    m[AT] = at;
  });
}

/**
 * The fast rows of a transaction's messages, when all were handed to
 * findAhead: each run of messages that lie in order in one chunk gives
 * that chunk's texts with a span placing their rows at the run's positions
 * in the transaction (placedRows in fast-rows.ts). When every chunk is
 * there whole, once, the chunks' customer tallies, placed the same way,
 * are the transaction's; a chunk there in part leaves that to SQL.
 */
export function foundAhead(messages: readonly HandedMessage[]): Promise<FoundRows> | undefined {
  const pending = new Set<Promise<void>>();
  for (const m of messages) {
    const rows = m[CHUNK_ROWS];
    if (rows === undefined) return undefined;
    pending.add(rows.found);
  }
  return Promise.all(pending).then(() => {
    const found: FoundRows = { rows: [], slow: [] };
    const spans: RowSpan[] = [];
    let run: ChunkRows | undefined;
    let from = 0;
    let shift = 0;
    let at = 0;
    // The chunks' tallies placed at their runs, while every run is a whole chunk seen once.
    let tallied: FastCustomer[][] | undefined = [];
    const whole = new Set<ChunkRows>();
    const endRun = (): void => {
      if (run === undefined) return;
      for (const text of run.texts) {
        found.rows.push(text);
        spans.push({ from, to: at + 1, shift });
      }
      if (tallied && run.customers && from === 0 && at + 1 === run.slow.length && !whole.has(run)) {
        whole.add(run);
        tallied.push(placedCustomers(run.customers, shift));
      } else {
        tallied = undefined;
      }
    };
    messages.forEach((m, seq) => {
      const rows = m[CHUNK_ROWS] as ChunkRows;
      const next = m[AT] as number;
      if (rows !== run || next !== at + 1) {
        endRun();
        [run, from, shift] = [rows, next, seq - next];
      }
      at = next;
      if (rows.slow[next] === 1) found.slow.push(seq);
    });
    endRun();
    found.spans = spans;
    if (tallied) found.customers = mergeCustomers(tallied);
    return found;
  });
}

/** A chunk's customer tally with its first rows at their positions in the transaction. */
const placedCustomers = (customers: readonly FastCustomer[], shift: number): FastCustomer[] =>
  customers.map((c) => ({ ...c, first_seq: c.first_seq === null ? null : c.first_seq + shift }));
