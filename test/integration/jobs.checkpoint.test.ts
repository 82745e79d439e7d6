import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAffordabilityReportsJob } from '../../jobs/affordability-reports.js';
import { runJob } from '../../jobs/runner.js';
import { loadConfig } from '../../src/config.js';
import { ingestGenerated, rows, silentLogger, tempStore } from '../helpers/store.js';

const walBytes = (db: string): number => (existsSync(`${db}.wal`) ? statSync(`${db}.wal`).size : 0);

describe('a job leaves what it wrote in the file, not in the log', () => {
  let ctx: Awaited<ReturnType<typeof tempStore>>;
  beforeAll(async () => {
    ctx = await tempStore();
    await ingestGenerated(ctx, { customers: 6, months: 12, seed: 5, faults: false, endMonth: '2024-06' });
  });
  afterAll(async () => ctx.cleanup());

  it('checkpoints when the nightly reports are stored, so DuckDB does not keep them in memory until the log fills', async () => {
    // The ingest left its batches in the log: far less than the checkpoint threshold.
    expect(walBytes(ctx.store.path)).toBeGreaterThan(0);
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path });
    const run = await runJob(createAffordabilityReportsJob({ now: () => new Date('2024-07-15T02:00:00Z') }), { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status).toBe('succeeded');
    expect(await rows(ctx.store, 'SELECT * FROM affordability_reports')).toHaveLength(18);
    expect(walBytes(ctx.store.path)).toBe(0);
  });
});
