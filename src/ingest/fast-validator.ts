import { Worker } from 'node:worker_threads';
import { fastRows, type FoundRows } from './fast-rows.js';
import { fastWorkerCode } from './fast-worker-code.js';
import type { RawItem } from './types.js';

type Pending = { resolve: (rows: FoundRows) => void; reject: (err: Error) => void };

/**
 * Items a message to the worker carries, one message at a time. The
 * thread's memory grows with what its messages hold (their copies of the
 * texts, the answers, the allocator's arena): a batch of 25,000 sent whole
 * held some 60 MiB more than the same batch sent in pieces of 2,048.
 */
const PIECE_ITEMS = 2048;

/**
 * The worker's young generation, MiB: the check makes short-lived objects
 * (the parsed events), and V8's default lets them take up to 48 MiB before
 * it collects them; 8 MiB held some 25 MiB less at about 10% more time.
 */
const YOUNG_GENERATION_MB = 8;

/**
 * Finds a batch's fast rows (fast-rows.ts) on a worker thread, so that the
 * JavaScript work of a batch runs on the second core while DuckDB writes the
 * batch before on the first. One worker for the process, started on first
 * use (or by warm) and holding the process open only while an answer is
 * awaited. Should the thread fail, the work is done on the calling thread
 * instead: the same rows, only slower.
 */
export class FastValidator {
  private worker: Promise<Worker | undefined> | undefined;
  private failed = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** How many batches were worked out on the worker thread, and how many on the calling thread. */
  readonly ran = { worker: 0, here: 0 };

  /** Starts the worker thread, if it is not started, so that the first batch does not wait for it. */
  warm(): void {
    void this.start();
  }

  /** The fast rows of `items`, worked out on the worker thread. */
  async rows(items: readonly RawItem[]): Promise<FoundRows> {
    const raws = items.map((item) => (item.refused === undefined ? item.raw : null));
    const worker = await this.start();
    if (!worker) return this.here(raws);
    try {
      const found: FoundRows = { rows: [], slow: [] };
      // One piece at a time: pieces sent at once wait in the thread's queue, each a copy of its texts.
      for (let base = 0; base < raws.length; base += PIECE_ITEMS) {
        const piece = await this.ask(worker, base, raws.slice(base, base + PIECE_ITEMS));
        for (const row of piece.rows) found.rows.push(row);
        for (const seq of piece.slow) found.slow.push(seq);
      }
      this.ran.worker++;
      return found;
    } catch {
      return this.here(raws);
    }
  }

  /** Ends the worker thread; later batches are worked out on the calling thread. */
  async stop(): Promise<void> {
    const worker = await this.worker;
    this.failed = true;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private ask(worker: Worker, base: number, raws: (string | null)[]): Promise<FoundRows> {
    const id = this.nextId++;
    return new Promise<FoundRows>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held open while an answer is awaited, and only then.
      worker.ref();
      worker.postMessage({ id, base, raws });
    });
  }

  private here(raws: readonly (string | null)[]): FoundRows {
    this.ran.here++;
    return fastRows(raws);
  }

  private start(): Promise<Worker | undefined> {
    if (this.failed) return Promise.resolve(undefined);
    this.worker ??= fastWorkerCode().then(
      (code) => this.spawn(code),
      () => this.gaveUp(),
    );
    return this.worker;
  }

  private gaveUp(): undefined {
    this.failed = true;
    this.worker = undefined;
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
    worker.on('message', (m: { id: number; error?: string } & FoundRows) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve({ rows: m.rows, slow: m.slow });
    });
    const fail = (err: Error): void => {
      this.gaveUp();
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the fast path's worker exited (${code})`)));
    // Last: listening for messages holds the process open too.
    worker.unref();
    return worker;
  }
}

/** The process's one validator. */
export const fastValidator = new FastValidator();
