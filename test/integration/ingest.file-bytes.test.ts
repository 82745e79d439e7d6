import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { Store } from '../../src/db/store.js';
import { queryRows } from '../../src/db/rows.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { InputLine } from '../../src/ingest/line-reader.js';
import { generateEvents } from '../../src/generate/index.js';
import { silentLogger } from '../helpers/store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-file-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function ingested(name: string, file: string, batchRows: number): Promise<unknown[]> {
  const store = await Store.open(path.join(dir, `${name}.duckdb`), silentLogger);
  try {
    await ingestFile(buildPipeline(store, silentLogger), file, { batchRows });
    return await store.read(async (conn) => [
      await queryRows(conn, 'SELECT * EXCLUDE (updated_at) FROM transactions ORDER BY ALL'),
      await queryRows(conn, 'SELECT * FROM monthly_category_totals ORDER BY ALL'),
      await queryRows(conn, 'SELECT line_number, raw, reason FROM dead_letters ORDER BY ALL'),
    ]);
  } finally {
    await store.close();
  }
}

describe("a file's lines on the fast path", () => {
  it('are checked from their bytes: only the lines the schema path or a dead letter needs become text, and the tables are those of the schema path', { timeout: 120_000 }, async () => {
    const lines = [...generateEvents({ customers: 8, months: 12, seed: 17, faults: true, endMonth: '2024-12' })].map((l) => l.trimEnd());
    // Hostile lines among them: not UTF-8, and a line of white space only.
    const file = path.join(dir, 'events.ndjson');
    writeFileSync(file, Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), Buffer.from(' \u00a0\n'), Buffer.from(`${lines[5]}\n`)]));
    expect(lines.length).toBeGreaterThan(5000);

    const read = vi.spyOn(InputLine.prototype, 'raw', 'get');
    const fast = await ingested('fast', file, 2500);
    const decoded = read.mock.calls.length;
    read.mockRestore();
    // The accounts, customers and faults go through the schema; the transaction events, nearly all of them, do not.
    expect(decoded).toBeGreaterThan(0);
    expect(decoded).toBeLessThan(lines.length / 10);

    // Batches below the fast path's threshold: every line read as text and validated by the schema.
    expect(await ingested('slow', file, 1000)).toEqual(fast);
    const [, , deadLetters] = fast as [unknown, unknown, { raw: string; reason: string }[]];
    expect(deadLetters.some((d) => d.raw === '{\uFFFD}' && d.reason === 'the line is not valid UTF-8')).toBe(true);
  });
});
