import type { Store } from '../db/store.js';
import type { Logger } from '../logger.js';
import { dropFastScratch, parseFast } from './fast-path.js';
import { prepareItems } from './prepare.js';
import type { RawItem } from './types.js';
import { ensureStage } from './write-batch.js';
import type { ParsedBatch } from './write-fast-batch.js';

/**
 * Parsing a batch ahead of its write. DuckDB parses and checks a large
 * batch's lines on a connection of its own (Store.beside), so that one
 * batch is parsed while the one before it is written, on the other core;
 * the writer then takes the parsed rows into its stage in the batch's
 * transaction (writeFastBatch).
 */

/**
 * When the store's scratch table of parsed rows (fast-parse.sql) is free
 * again: one batch at a time is parsed ahead, whichever pipeline parses it,
 * and the next waits until the writer has taken the rows of the one before.
 */
const scratchFree = new WeakMap<Store, Promise<void>>();

/** A batch parsed ahead of its write; `release` frees the scratch table for the next one (idempotent). */
export interface ParsedAhead extends ParsedBatch {
  release: () => void;
}

/** Parses `items` beside the writer, and validates with the schema the items the SQL left. */
export async function parseBeside(store: Store, items: readonly RawItem[]): Promise<ParsedBatch> {
  const r = await store.beside(async (conn) => {
    await ensureStage(conn);
    return parseFast(conn, items);
  });
  return { ...r, prepared: prepareItems(r.slow.map((seq) => items[seq] as RawItem)) };
}

/**
 * Starts parsing `items` as soon as the scratch table is free. The batches
 * of a store must be written in the order they were parsed: each parse
 * waits until the writer has taken (or released) the one before.
 */
export function parseAhead(store: Store, items: readonly RawItem[], logger: Logger): Promise<ParsedAhead> {
  let freed = false;
  let free!: () => void;
  const next = new Promise<void>((resolve) => (free = resolve));
  const release = (): void => {
    if (freed) return;
    freed = true;
    // Queued beside the writer before the next parse can be: the rows' memory goes back now.
    store.beside(dropFastScratch).catch((err: unknown) => logger.warn({ err }, 'could not drop the parsed rows of a batch'));
    free();
  };
  const before = scratchFree.get(store) ?? Promise.resolve();
  scratchFree.set(store, next);
  const parsed = before.then(() => parseBeside(store, items)).then(
    (r): ParsedAhead => ({ ...r, release }),
    (err: unknown) => {
      release();
      throw err;
    },
  );
  // Awaited by the pipeline's ingest; a source that stops before it does must not leave a rejection unhandled.
  parsed.catch(() => undefined);
  return parsed;
}
