import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest/file-source.js';
import { GENERIC_503 } from '../helpers/api.js';
import { startLoggedService } from '../helpers/logged-service.js';
import { fixturePath } from '../helpers/store.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

describe('/readyz', () => {
  it('answers 503 with the error body until start-up work is done, while /healthz answers', async () => {
    const svc = await startLoggedService('info', {}, { startUpWork: true });
    try {
      expect(await get(`${svc.base}/readyz`)).toEqual({ status: 503, body: GENERIC_503 });
      expect((await get(`${svc.base}/healthz`)).status).toBe(200);
      // The start-up work, as the demo does it: ingest while the API already listens.
      await ingestFile(svc.service.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 5 });
      expect((await get(`${svc.base}/readyz`)).status).toBe(503);
      svc.service.markReady();
      expect(await get(`${svc.base}/readyz`)).toEqual({ status: 200, body: { status: 'ready' } });
    } finally {
      await svc.stop();
      svc.cleanup();
    }
  });

  it('is ready at once for `afford serve`, which has no start-up work', async () => {
    const svc = await startLoggedService('info');
    try {
      expect((await get(`${svc.base}/readyz`)).status).toBe(200);
    } finally {
      await svc.stop();
      svc.cleanup();
    }
  });

  it('is ready in the demo once it says it is serving', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'afford-demo-'));
    const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_PORT: '0', AFFORD_LOG_LEVEL: 'info' };
    const demo = spawn(process.execPath, [path.join(ROOT, 'bin/afford.mjs'), 'demo', '--customers', '3', '--months', '2'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        demo.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /4\/4 serving on (http:\/\/\S+) /.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        demo.on('close', (code) => reject(new Error(`demo exited with ${code}: ${out}`)));
      });
      expect(await get(`${address}/readyz`)).toEqual({ status: 200, body: { status: 'ready' } });
    } finally {
      const closed = new Promise((resolve) => demo.on('close', resolve));
      demo.kill('SIGTERM');
      await closed;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops on Ctrl-C while its jobs run: the job in hand stops at its next safe point and the store closes after it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'afford-demo-'));
    const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_PORT: '0', AFFORD_LOG_LEVEL: 'info', AFFORD_JOBS_SLICE_CUSTOMERS: '10' };
    const demo = spawn(process.execPath, [path.join(ROOT, 'bin/afford.mjs'), 'demo', '--customers', '200', '--months', '6'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      let err = '';
      demo.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve, reject) => {
        demo.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          // The first job is done: the reports are running now.
          if (out.includes('3/4 job rebuild-monthly-totals') && !demo.killed) demo.kill('SIGINT');
        });
        demo.on('close', resolve);
        setTimeout(() => reject(new Error(`the demo did not stop: ${out}`)), 90_000);
      });
      expect(code, err).toBe(0);
      expect(out).not.toContain('4/4 serving');
      expect(err).not.toContain('the store is closed');
      const stopped = err.split('\n').filter((l) => l.includes('"msg":"job stopped"'));
      expect(stopped.map((l) => JSON.parse(l) as { job: string; reason: string })).toMatchObject([
        { job: 'affordability-reports', reason: expect.stringMatching(/^stopped (before its step 'reports'|after \d+ of 200 customers): the demo is stopping$/) },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
