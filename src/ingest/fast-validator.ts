import { Worker } from 'node:worker_threads';
import { mergeCustomers } from './fast-customers.js';
import { fastRows, fastRowsOfBytes, type FoundRows } from './fast-rows.js';
import { fastWorkerCode } from './fast-worker-code.js';
import { packTexts } from './packed-texts.js';
import type { RawItem } from './types.js';

/**
 * Most items a message to the worker carries. The thread's memory grows with
 * what its messages hold (their copies of the texts, the answers, the
 * allocator's arena): a batch of 25,000 sent whole held some 60 MiB more
 * than the same batch sent in pieces of 2,048. A message carries one piece
 * of a batch or several small ones (a Kafka chunk's may be a few hundred
 * items), so that small pieces do not cost a round trip each.
 */
const PIECE_ITEMS = 2048;

/**
 * Messages on the thread at once: while it works on one, the next waits in
 * its port, so that the thread does not wait for the main thread (busy
 * decoding a Kafka fetch, say) to send it more.
 */
const IN_FLIGHT = 2;

/**
 * The worker's young generation, MiB: the check makes short-lived objects
 * (the parsed events), and V8's default lets them take up to 48 MiB before
 * it collects them; 8 MiB held some 25 MiB less at about 10% more time.
 */
const YOUNG_GENERATION_MB = 8;

/** The rows of one search (`rows` or `stream`), found a piece at a time. */
interface Search {
  found: FoundRows[];
  /** Pieces queued and not yet worked out. */
  left: number;
  /** No more pieces will come. */
  ended: boolean;
  resolve: (rows: FoundRows) => void;
}

/** A batch's items handed over one by one as they are read, its rows found a piece at a time meanwhile. */
export interface RowStream {
  add(item: RawItem): void;
  /** The batch is whole: its rows, once every piece is worked out. */
  end(): Promise<FoundRows>;
}

/**
 * A piece of a search waiting to be worked out, on the worker thread or on
 * the calling thread: its items' texts (null for one its source refused),
 * or their UTF-8 bytes where they lie (null for one refused, or a missing
 * value), packed into one buffer only as the piece is sent to the thread.
 */
interface Piece {
  search: Search;
  index: number;
  base: number;
  count: number;
  raws?: (string | null)[];
  values?: (Uint8Array | null)[];
}

/**
 * Finds a batch's fast rows (fast-rows.ts) on a worker thread, so that the
 * JavaScript work of a batch runs on the second core while DuckDB writes the
 * batch before on the first. One worker for the process, started on first
 * use (or by warm) and holding the process open only while it has work.
 * Batches are queued in pieces, which the thread takes in the order they
 * came, a message of up to PIECE_ITEMS items at a time; a caller that can
 * do nothing until some rows are found (`helpUntil`) works out pieces from
 * the same queue meanwhile.
 * Should the thread fail, the work is done on the calling thread instead:
 * the same rows, only slower.
 */
export class FastValidator {
  private worker: Promise<Worker | undefined> | undefined;
  private failed = false;
  /** The thread has compiled its check and said so: from then on it is faster than this thread's help. */
  private ready = false;
  private readonly queue: Piece[] = [];
  /** The messages on the worker thread, by id: the pieces each carries. */
  private readonly onWorker = new Map<number, Piece[]>();
  private nextId = 0;
  /** How many pieces were worked out on the worker thread, and how many on the calling thread; how many messages the thread was sent. */
  readonly ran = { worker: 0, here: 0, messages: 0 };

  /** Whether the thread has started and compiled its check (see helpUntil). */
  get isReady(): boolean {
    return this.ready;
  }

  /** Starts the worker thread, if it is not started, so that the first batch does not wait for it. */
  warm(): void {
    void this.start();
  }

  /** The fast rows of `items`, found on the worker thread (and by whoever helps, see helpUntil). */
  rows(items: readonly RawItem[]): Promise<FoundRows> {
    const stream = this.stream();
    for (const item of items) stream.add(item);
    return stream.end();
  }

  /**
   * The fast rows of a batch whose items come one by one: each piece is
   * queued as soon as it is whole, so that the thread works on the start of
   * a batch while the rest is still being read.
   */
  stream(): RowStream {
    const { search, promise } = this.search();
    // The piece being filled: texts, or the bytes of items that have them (a file's lines, decoded on the thread).
    let raws: (string | null)[] = [];
    let values: (Uint8Array | null)[] = [];
    let base = 0;
    const queuePiece = (): void => {
      if (raws.length > 0) {
        this.queuePiece({ search, index: search.found.length, base, count: raws.length, raws });
        base += raws.length;
        raws = [];
      } else if (values.length > 0) {
        this.queuePiece({ search, index: search.found.length, base, count: values.length, values });
        base += values.length;
        values = [];
      }
    };
    return {
      add: (item) => {
        const { bytes } = item;
        if (bytes === undefined) {
          if (values.length > 0) queuePiece();
          raws.push(item.refused === undefined ? item.raw : null);
        } else {
          if (raws.length > 0) queuePiece();
          values.push(bytes);
        }
        if (raws.length + values.length === PIECE_ITEMS) queuePiece();
      },
      end: () => {
        if (!search.ended) {
          queuePiece();
          this.end(search);
        }
        return promise;
      },
    };
  }

  /**
   * The fast rows of values given as UTF-8 bytes (a Kafka batch's; a
   * missing value is an empty text): each piece's are copied into one
   * buffer (packed-texts.ts) as it is sent to the thread, and decoded where
   * they are checked, so that the calling thread makes no string of them.
   * A value that is not UTF-8 is left to the schema path, as a refused item
   * is. A stream's items that carry their bytes (a file's lines) go the
   * same way.
   */
  bytes(values: readonly (Uint8Array | null)[]): Promise<FoundRows> {
    const { search, promise } = this.search();
    for (let base = 0; base < values.length; base += PIECE_ITEMS) {
      const piece = values.slice(base, base + PIECE_ITEMS);
      this.queuePiece({ search, index: search.found.length, base, count: piece.length, values: piece });
    }
    this.end(search);
    return promise;
  }

  private search(): { search: Search; promise: Promise<FoundRows> } {
    let resolve: (rows: FoundRows) => void = () => undefined;
    const promise = new Promise<FoundRows>((r) => (resolve = r));
    return { search: { found: [], left: 0, ended: false, resolve }, promise };
  }

  private queuePiece(piece: Piece): void {
    piece.search.left++;
    piece.search.found.push({ rows: [], slow: [] });
    this.queue.push(piece);
    void this.pump();
  }

  private end(search: Search): void {
    search.ended = true;
    if (search.left === 0) this.finish(search);
  }

  /**
   * Works out queued pieces on the calling thread, oldest first, until
   * `awaited` settles, then returns it: for a caller that would otherwise
   * only wait for it, while the thread is still starting. It yields to the
   * event loop between pieces, so that the thread's answers are taken as
   * they come. Once the thread is ready it no longer helps: its check is
   * compiled and this thread's is not (a piece took it some 90 ms against
   * 12), and while it works out a piece the thread's answers wait, and so
   * does the thread.
   */
  async helpUntil<T>(awaited: Promise<T>): Promise<T> {
    let settled = false;
    const done = awaited.finally(() => {
      settled = true;
    });
    while (!settled && !this.ready) {
      const piece = this.queue.shift();
      if (piece === undefined) break;
      this.here(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return done;
  }

  /** Ends the worker thread; later pieces are worked out on the calling thread. */
  async stop(): Promise<void> {
    const worker = await this.worker;
    this.failed = true;
    this.ready = false;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  /** Hands the oldest queued pieces to the worker thread while it has room; without a thread, works out the queue here. */
  private async pump(): Promise<void> {
    if (this.onWorker.size >= IN_FLIGHT || this.queue.length === 0) return;
    const started = await this.start();
    // Stopped meanwhile: a message to the thread now would never be answered.
    const worker = this.failed ? undefined : started;
    if (!worker) {
      for (let piece = this.queue.shift(); piece !== undefined; piece = this.queue.shift()) this.here(piece);
      return;
    }
    while (this.onWorker.size < IN_FLIGHT && this.queue.length > 0) {
      const pieces: Piece[] = [this.queue.shift() as Piece];
      let items = (pieces[0] as Piece).count;
      for (let next = this.queue[0]; next !== undefined && items + next.count <= PIECE_ITEMS; next = this.queue[0]) {
        pieces.push(this.queue.shift() as Piece);
        items += next.count;
      }
      const id = this.nextId++;
      this.onWorker.set(id, pieces);
      this.ran.messages++;
      // Held open while a message is on the thread, and only then.
      worker.ref();
      // Bytes are packed now rather than when queued, and handed over rather than copied: a batch read ahead of the thread holds no second copy of them.
      const transfer: ArrayBuffer[] = [];
      const parts = pieces.map((p) => {
        if (p.values === undefined) return { base: p.base, raws: p.raws };
        const packed = packTexts(p.values);
        transfer.push(packed.bytes.buffer as ArrayBuffer, packed.starts.buffer as ArrayBuffer, packed.ends.buffer as ArrayBuffer);
        return { base: p.base, ...packed };
      });
      worker.postMessage({ id, parts }, transfer);
    }
  }

  private here(piece: Piece): void {
    this.ran.here++;
    this.settle(piece, piece.raws ? fastRows(piece.raws, piece.base) : fastRowsOfBytes(piece.values ?? [], piece.base));
  }

  private settle(piece: Piece, rows: FoundRows): void {
    const { search } = piece;
    search.found[piece.index] = rows;
    if (--search.left === 0 && search.ended) this.finish(search);
  }

  private finish(search: Search): void {
    const all: FoundRows = { rows: [], slow: [] };
    for (const part of search.found) {
      for (const row of part.rows) all.rows.push(row);
      for (const seq of part.slow) all.slow.push(seq);
    }
    if (search.found.every((part) => part.customers !== undefined)) all.customers = mergeCustomers(search.found.map((part) => part.customers ?? []));
    search.resolve(all);
  }

  private start(): Promise<Worker | undefined> {
    if (this.failed) return Promise.resolve(undefined);
    this.worker ??= fastWorkerCode().then(
      (code) => this.spawn(code),
      () => this.gaveUp(),
    );
    return this.worker;
  }

  /** No thread from now on: the pieces it held, and the rest of the queue, are worked out here. */
  private gaveUp(): undefined {
    this.failed = true;
    this.ready = false;
    this.worker = undefined;
    const held = [...this.onWorker.values()].flat();
    this.onWorker.clear();
    for (const piece of held) this.here(piece);
    void this.pump();
    return undefined;
  }

  private spawn(code: string): Worker | undefined {
    if (this.failed) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(code, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    } catch {
      return this.gaveUp();
    }
    worker.on('message', (m: { id: number; parts?: FoundRows[]; error?: string; ready?: boolean }) => {
      if (m.ready) {
        this.ready = true;
        return;
      }
      const pieces = this.onWorker.get(m.id) ?? [];
      this.onWorker.delete(m.id);
      if (this.onWorker.size === 0) worker.unref();
      pieces.forEach((piece, i) => {
        const found = m.parts?.[i];
        if (found === undefined) {
          this.here(piece);
        } else {
          this.ran.worker++;
          this.settle(piece, found);
        }
      });
      void this.pump();
    });
    worker.on('error', () => this.gaveUp());
    worker.on('exit', () => this.gaveUp());
    // Last: listening for messages holds the process open too.
    worker.unref();
    return worker;
  }
}

/** The process's one validator. */
export const fastValidator = new FastValidator();
