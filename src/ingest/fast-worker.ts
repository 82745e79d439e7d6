import { parentPort } from 'node:worker_threads';
import { fastRows } from './fast-rows.js';

/**
 * The thread that finds a batch's fast rows (fast-rows.ts) while the writer
 * writes the batch before: each message is { id, parts }, each part a piece
 * of a batch, { base, raws } with `base` the position of its first item in
 * its batch; each answer is { id, parts } with the rows of each part, in
 * order, or { id, error }. It runs as one script bundled from these sources
 * (fast-worker-code.ts).
 */
parentPort?.on('message', (message: { id: number; parts: { base: number; raws: (string | null)[] }[] }) => {
  try {
    parentPort?.postMessage({ id: message.id, parts: message.parts.map((part) => fastRows(part.raws, part.base)) });
  } catch (err) {
    parentPort?.postMessage({ id: message.id, error: String(err) });
  }
});
