import { parentPort } from 'node:worker_threads';
import { fastRows, fastRowsOfBytes } from './fast-rows.js';
import type { PackedTexts } from './packed-texts.js';
import { warmUp } from './fast-warm.js';

/**
 * The thread that finds a batch's fast rows (fast-rows.ts) while the writer
 * writes the batch before. Each message is { id, parts }, each part a piece
 * of a batch: { base, raws } with the items' texts, or { base, bytes,
 * starts, ends } with their UTF-8 bytes packed (packed-texts.ts), `base`
 * being the position of its first item in its batch. Each answer is
 * { id, parts } with the rows of each part, in order, or { id, error }.
 * Once started, it checks made-up events until its code is compiled
 * (fast-warm.ts), and says { ready: true }. It runs as one script bundled
 * from these sources (fast-worker-code.ts).
 */
type Part = { base: number } & ({ raws: (string | null)[] } | PackedTexts);

// Compiled on made-up events before the first batch comes (fast-warm.ts); then the thread says it is ready.
warmUp();
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (message: { id: number; parts: Part[] }) => {
  try {
    parentPort?.postMessage({ id: message.id, parts: message.parts.map((part) => ('raws' in part ? fastRows(part.raws, part.base) : fastRowsOfBytes(part, part.base))) });
  } catch (err) {
    parentPort?.postMessage({ id: message.id, error: String(err) });
  }
});
