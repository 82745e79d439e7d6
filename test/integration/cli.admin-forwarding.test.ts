import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { afford as runAfford, useServe } from '../helpers/cli.js';
import { fixturePath } from '../helpers/store.js';

const service = useServe('afford-admin-');
const afford = (args: string[], extraEnv: Record<string, string> = {}) => runAfford(args, { ...service.env, ...extraEnv });

describe('CLI commands while afford serve holds the database', () => {
  it('runs them in the service, over the local admin socket', async () => {
    const ingest = await afford(['ingest', 'file', path.relative(process.cwd(), fixturePath('hand-computed.ndjson'))]);
    expect(ingest.stderr).not.toMatch(/lock/i);
    expect(ingest.stdout).toMatch(/^read 19, inserted 12, updated 2, deleted 1, unchanged 2, dead letters 2/);
    expect(ingest.code).toBe(0);

    const rebuild = await afford(['jobs', 'run', 'rebuild-monthly-totals']);
    expect(rebuild.stdout).toMatch(/rebuild-monthly-totals: succeeded .*no drift in 7 monthly total rows/);
    expect(rebuild.code).toBe(0);
  });

  it('refuses commands that need their own process, with a clear message', async () => {
    const result = await afford(['ingest', 'kafka'], { AFFORD_KAFKA_BROKERS: '127.0.0.1:9' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/cannot run while afford serve holds the database/);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await service.serve.stop()).toBe(0);
  });
});
