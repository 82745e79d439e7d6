import { Worker } from 'node:worker_threads';
import { fastRows, type FastRows } from './fast-rows.js';
import type { RawItem } from './types.js';

type Pending = { resolve: (rows: FastRows) => void; reject: (err: Error) => void };

/**
 * Finds a batch's fast rows (fast-rows.ts) on a worker thread, so that the
 * JavaScript work of a batch runs on the second core while DuckDB writes the
 * batch before on the first. One worker for the process, started on first
 * use and never keeping the process alive. Should the thread fail, the work
 * is done on the calling thread instead: the same rows, only slower.
 */
export class FastValidator {
  private worker: Worker | undefined;
  private failed = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** How many batches were worked out on the worker thread, and how many on the calling thread. */
  readonly ran = { worker: 0, here: 0 };

  /** The fast rows of `items`, worked out on the worker thread. */
  rows(items: readonly RawItem[]): Promise<FastRows> {
    const raws = items.map((item) => (item.refused === undefined ? item.raw : null));
    const worker = this.start();
    if (!worker) return Promise.resolve(this.here(raws));
    const id = this.nextId++;
    return new Promise<FastRows>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held open while an answer is awaited, and only then.
      worker.ref();
      worker.postMessage({ id, raws });
    }).then(
      (found) => {
        this.ran.worker++;
        return found;
      },
      () => this.here(raws),
    );
  }

  /** Ends the worker thread; later batches are worked out on the calling thread. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.failed = true;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private here(raws: readonly (string | null)[]): FastRows {
    this.ran.here++;
    return fastRows(raws);
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    try {
      const worker = new Worker(new URL('./fast-worker-entry.mjs', import.meta.url));
      worker.on('message', (m: { id: number; error?: string } & FastRows) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (this.pending.size === 0) worker.unref();
        if (m.error !== undefined) p?.reject(new Error(m.error));
        else p?.resolve({ rows: m.rows, slow: m.slow });
      });
      const fail = (err: Error): void => {
        this.failed = true;
        this.worker = undefined;
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the fast path's worker exited (${code})`)));
      // Last: listening for messages holds the process open too.
      worker.unref();
      this.worker = worker;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }
}

/** The process's one validator. */
export const fastValidator = new FastValidator();
