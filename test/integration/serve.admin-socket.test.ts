import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-admin-socket-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('afford serve without its admin socket', () => {
  it('goes on serving, and says why commands run beside it will not reach it, when the socket cannot listen', async () => {
    // The socket lives in the temporary folder: one that is not there leaves it nowhere to listen.
    const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_EXPORT_DIR: path.join(dir, 'export'), AFFORD_PORT: '0', TMPDIR: path.join(dir, 'no-such-folder') };
    const serve = await startServe(env);
    try {
      const deadline = Date.now() + 10_000;
      while (!serve.log().includes('the admin socket cannot listen') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(serve.log()).toContain('the admin socket cannot listen: afford commands run beside this service will not reach it');
      const health = await fetch(`${serve.address}/healthz`);
      expect(health.status).toBe(200);
      expect(serve.child.exitCode).toBeNull();
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });
});
