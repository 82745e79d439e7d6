import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../helpers/store.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'afford-admin-'));
const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_PORT: '0', AFFORD_LOG_LEVEL: 'info' };

function afford(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/afford.mjs'), ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('CLI commands while afford serve holds the database', () => {
  let serve: ChildProcess;
  beforeAll(async () => {
    serve = spawn(process.execPath, [path.join(ROOT, 'bin/afford.mjs'), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let log = '';
      serve.stderr?.on('data', (d: Buffer) => {
        log += d.toString();
        if (log.includes('afford is serving')) resolve();
      });
      serve.on('close', (code) => reject(new Error(`serve exited with ${code}: ${log}`)));
    });
  });
  afterAll(() => {
    serve.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

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
    const exited = new Promise<number | null>((resolve) => serve.on('close', (code) => resolve(code)));
    serve.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
