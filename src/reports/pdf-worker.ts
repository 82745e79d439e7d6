import { parentPort } from 'node:worker_threads';
import { renderReportPdf, type PdfInput } from './report-pdf.js';

/**
 * A PDF worker thread: renders each report it is sent and sends the bytes
 * back, transferred rather than copied. Errors go back as messages, so one
 * bad report fails alone and the worker carries on.
 */

export interface RenderTask {
  id: number;
  input: PdfInput;
}

export type RenderResult = { id: number; pdf: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on('message', (task: RenderTask) => {
    renderReportPdf(task.input).then(
      (pdf) => {
        // Only a buffer that owns its whole ArrayBuffer can be transferred; pdfkit's usually does.
        const own = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? new Uint8Array(pdf.buffer) : new Uint8Array(pdf);
        port.postMessage({ id: task.id, pdf: own } satisfies RenderResult, [own.buffer as ArrayBuffer]);
      },
      (err: unknown) => port.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) } satisfies RenderResult),
    );
  });
}
