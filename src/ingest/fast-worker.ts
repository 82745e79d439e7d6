import { parentPort } from 'node:worker_threads';
import { fastRows } from './fast-rows.js';

/**
 * The thread that finds a batch's fast rows (fast-rows.ts) while the writer
 * writes the batch before: each message is { id, raws }, each answer
 * { id, rows, slow } or { id, error }.
 */
parentPort?.on('message', (message: { id: number; raws: (string | null)[] }) => {
  try {
    parentPort?.postMessage({ id: message.id, ...fastRows(message.raws) });
  } catch (err) {
    parentPort?.postMessage({ id: message.id, error: String(err) });
  }
});
