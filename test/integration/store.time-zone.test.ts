import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..');

describe("the store's clock", () => {
  it("keeps a column's default time in UTC on a machine in another zone, even when a DuckDB instance was made before the store", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'afford-tz-'));
    try {
      const child = path.join(root, 'test', 'fixtures', 'time-zone-child.ts');
      const run = spawnSync(process.execPath, ['--import', 'tsx', child, path.join(dir, 'a.duckdb')], { cwd: root, env: { ...process.env, TZ: 'Asia/Tokyo' }, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const { stored, now } = JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as { stored: string; now: string };
      // Tokyo is nine hours ahead of UTC: stored in its zone, the time would be hours from now.
      expect(Math.abs(Date.parse(`${stored.replace(' ', 'T')}Z`) - Date.parse(now))).toBeLessThan(60_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
