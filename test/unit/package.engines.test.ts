import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const readJson = (name: string): unknown => JSON.parse(readFileSync(path.join(ROOT, name), 'utf8'));

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

/**
 * The oldest Node the README promises: `npm ci` must print no engine warning
 * there. 20.19, not 20.0: the linter and the test runner need it.
 */
const OLDEST_NODE = '20.19.0';

describe('the Node version the README promises', () => {
  it('is the one package.json declares', () => {
    const pkg = readJson('package.json') as { engines: { node: string } };
    expect(semver.minVersion(pkg.engines.node)?.version).toBe(OLDEST_NODE);
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('Node.js 20.19 or later');
  });

  it('satisfies the engines.node range of every package in the lock file', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, LockPackage> };
    const refused = Object.entries(lock.packages)
      .map(([where, p]) => ({ where: where || '(root)', version: p.version, node: Array.isArray(p.engines) ? undefined : p.engines?.node }))
      .filter((p) => p.node !== undefined && !semver.satisfies(OLDEST_NODE, p.node))
      .map((p) => `${p.where}@${p.version ?? ''} wants node ${p.node ?? ''}`);
    expect(refused).toEqual([]);
  });
});
