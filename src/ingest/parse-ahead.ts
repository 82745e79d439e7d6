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
 * transaction (writeFastBatch). Each parse stages its rows in the scratch
 * table under a number of its own, so batches may be parsed and written in
 * any order, by any number of pipelines over one store.
 */

let lastBatch = 0;

/** A batch parsed ahead of its write; `release` deletes its rows from the scratch table (idempotent). */
export interface ParsedAhead extends ParsedBatch {
  release: () => void;
}

/** Parses `items` beside the writer, and validates with the schema the items the SQL left. */
export async function parseBeside(store: Store, items: readonly RawItem[]): Promise<ParsedBatch> {
  const batch = ++lastBatch;
  const r = await store.beside(async (conn) => {
    await ensureStage(conn);
    try {
      return await parseFast(conn, items, batch);
    } catch (err) {
      // Whatever it staged before it failed goes too.
      await dropFastScratch(conn, batch).catch(() => undefined);
      throw err;
    }
  });
  return { batch, ...r, prepared: prepareItems(r.slow.map((seq) => items[seq] as RawItem)) };
}

/**
 * Parses `items` beside the writer, for `IngestPipeline.ingest`, which
 * releases it once the writer has taken its rows. A caller that never
 * ingests it must release it, or its rows stay in the scratch table until
 * the process ends.
 */
export function parseAhead(store: Store, items: readonly RawItem[], logger: Logger): Promise<ParsedAhead> {
  const parsed = parseBeside(store, items).then((r): ParsedAhead => {
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      store.beside((conn) => dropFastScratch(conn, r.batch)).catch((err: unknown) => logger.warn({ err }, 'could not delete the parsed rows of a batch'));
    };
    return { ...r, release };
  });
  // Awaited by the pipeline's ingest; a source that stops before it does must not leave a rejection unhandled.
  parsed.catch(() => undefined);
  return parsed;
}

/** Lets go of a parse that will not be written (`parsed` may have failed, or be undefined for a small batch). */
export function releaseParsed(parsed: Promise<ParsedAhead> | undefined): void {
  void parsed?.then((p) => p.release(), () => undefined);
}
