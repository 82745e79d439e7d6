import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { affordError } from '../domain/errors.js';
import type { RenderResult, RenderTask } from './pdf-worker.js';
import type { PdfInput } from './report-pdf.js';

/**
 * Renders PDFs on worker threads, so that the API's event loop and the
 * nightly job's reads never wait for pdfkit, and a machine's cores all draw.
 * Workers start on first use (a process that renders nothing starts none),
 * take up to two reports at a time (the next one is already there when one
 * is done), and hold the process open only while they have work. A worker
 * that dies fails the reports it held; the next report starts a new one.
 */

export interface PdfRenderer {
  /** `reportJson`: JSON.stringify(input.report) when the caller already has it (the nightly job stores it), so it is not made twice. */
  render(input: PdfInput, reportJson?: string): Promise<Buffer>;
}

/** The JSON the worker parses: the input without its transactions (already text, sent apart). */
function taskJson(input: Omit<PdfInput, 'transactions'>, reportJson: string | undefined): string {
  if (reportJson === undefined || input.insights !== undefined) return JSON.stringify(input);
  return input.evidence === undefined ? `{"report":${reportJson}}` : `{"report":${reportJson},"evidence":${JSON.stringify(input.evidence)}}`;
}

const IN_FLIGHT_PER_WORKER = 2;
const ENTRY = new URL('./pdf-worker-entry.mjs', import.meta.url);

interface Pending {
  resolve: (pdf: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** The default pool size: every core the process may use. */
export function defaultPdfWorkers(): number {
  return availableParallelism();
}

export class PdfPool implements PdfRenderer {
  private readonly slots: Slot[] = [];
  private readonly queue: Array<{ task: RenderTask } & Pending> = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number = defaultPdfWorkers()) {
    if (!Number.isInteger(size) || size < 1) throw affordError('PDF_POOL_SIZE', String(size));
  }

  render(input: PdfInput, reportJson?: string): Promise<Buffer> {
    if (this.closed) return Promise.reject(affordError('PDF_POOL_CLOSED'));
    return new Promise<Buffer>((resolve, reject) => {
      const { transactions, ...rest } = input;
      this.queue.push({ task: { id: this.nextId++, json: taskJson(rest, reportJson), transactions }, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; reports still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(affordError('PDF_POOL_CLOSED'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.freeSlot();
      if (!slot) return;
      const next = this.queue.shift()!;
      slot.pending.set(next.task.id, { resolve: next.resolve, reject: next.reject });
      if (slot.pending.size === 1) slot.worker.ref();
      slot.worker.postMessage(next.task);
    }
  }

  /** The least busy worker with room, starting one while the pool is below its size and all are busy. */
  private freeSlot(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots) if (!best || slot.pending.size < best.pending.size) best = slot;
    if (best && best.pending.size === 0) return best;
    if (this.slots.length < this.size) return this.start();
    return best && best.pending.size < IN_FLIGHT_PER_WORKER ? best : undefined;
  }

  private start(): Slot {
    const slot: Slot = { worker: new Worker(ENTRY), pending: new Map() };
    slot.worker.on('message', (result: RenderResult) => {
      const pending = slot.pending.get(result.id);
      if (!pending) return;
      slot.pending.delete(result.id);
      if (slot.pending.size === 0) slot.worker.unref();
      if ('pdf' in result) pending.resolve(Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength));
      else pending.reject(affordError('PDF_RENDER_FAILED', result.error));
      this.dispatch();
    });
    const fail = (err: Error): void => {
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots.splice(at, 1);
      for (const pending of slot.pending.values()) pending.reject(err);
      slot.pending.clear();
      if (!this.closed) this.dispatch();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => fail(affordError('PDF_WORKER_EXITED', String(code))));
    this.slots.push(slot);
    return slot;
  }
}

let shared: PdfPool | undefined;

/**
 * The process's pool: the API and the nightly job share it, so a process
 * never runs more PDF workers than it has cores. Idle workers do not keep
 * the process alive, so it needs no closing.
 */
export function sharedPdfPool(): PdfPool {
  shared ??= new PdfPool();
  return shared;
}
