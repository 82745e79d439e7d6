import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { IngestPipeline } from './pipeline.js';
import { addToSummary, emptySummary, type IngestSummary, type RawItem } from './types.js';

export interface FileIngestOptions {
  batchRows: number;
  onProgress?: (summary: IngestSummary) => void;
}

/**
 * Streams an NDJSON file (or standard input for '-') through the pipeline in
 * bounded batches, so memory stays flat whatever the file's size. Re-reading
 * a file is harmless: versions make replays no-ops and dead letters are keyed
 * by line and content.
 */
export async function ingestFile(pipeline: IngestPipeline, input: string, options: FileIngestOptions): Promise<IngestSummary> {
  const stream = input === '-' ? process.stdin : createReadStream(input);
  const sourceRef = input === '-' ? 'stdin' : path.resolve(input);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const summary = emptySummary();
  let batch: RawItem[] = [];
  let lineNumber = 0;

  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const result = await pipeline.ingest(batch);
    batch = [];
    addToSummary(summary, result);
    options.onProgress?.(summary);
  };

  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    batch.push({ raw: line, ref: { source: 'file', sourceRef, lineNumber } });
    if (batch.length >= options.batchRows) await flush();
  }
  await flush();
  return summary;
}
