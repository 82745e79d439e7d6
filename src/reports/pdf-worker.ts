import { parentPort } from 'node:worker_threads';
import { renderReportPdf, type PdfInput } from './report-pdf.js';

/**
 * A PDF worker thread: renders each report it is sent and sends the bytes
 * back, transferred rather than copied. Errors go back as messages, so one
 * bad report fails alone and the worker carries on.
 */

/**
 * A report to render. The input goes as JSON text rather than as objects:
 * the structured clone of a year's report and insights costs twice what
 * JSON.stringify does, and a string crosses between threads as one copy.
 */
export interface RenderTask {
  id: number;
  /** JSON of the PdfInput without its transactions. */
  json: string;
  /** The PdfInput's transactions, already JSON text. */
  transactions: string;
}

export type RenderResult = { id: number; pdf: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on('message', (task: RenderTask) => {
    const render = async (): Promise<Buffer> =>
      renderReportPdf({ ...(JSON.parse(task.json) as Omit<PdfInput, 'transactions'>), transactions: task.transactions });
    render().then(
      (pdf) => {
        // Only a buffer that owns its whole ArrayBuffer can be transferred; pdfkit's usually does.
        const own = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? new Uint8Array(pdf.buffer) : new Uint8Array(pdf);
        port.postMessage({ id: task.id, pdf: own } satisfies RenderResult, [own.buffer as ArrayBuffer]);
      },
      (err: unknown) => port.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) } satisfies RenderResult),
    );
  });
}
