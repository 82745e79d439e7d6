import { parentPort } from 'node:worker_threads';
import { fastRows } from './fast-rows.js';

/**
 * The thread that finds a batch's fast rows (fast-rows.ts) while the writer
 * writes the batch before: each message is a piece of a batch,
 * { id, base, raws } with `base` the position of its first item in the
 * batch; each answer is { id, rows, slow } or { id, error }. It runs as one
 * script bundled from these sources (fast-worker-code.ts).
 */
parentPort?.on('message', (message: { id: number; base: number; raws: (string | null)[] }) => {
  try {
    parentPort?.postMessage({ id: message.id, ...fastRows(message.raws, message.base) });
  } catch (err) {
    parentPort?.postMessage({ id: message.id, error: String(err) });
  }
});
