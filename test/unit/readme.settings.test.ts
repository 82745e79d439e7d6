import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config.js';

const readme = readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '../../README.md'), 'utf8');
const ciRun = readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '../../.ci/run'), 'utf8');

describe('README', () => {
  it('documents every setting with its default', () => {
    for (const s of SETTINGS) {
      expect(readme, s.name).toContain(`| \`${s.name}\` | ${s.default ? `\`${s.default}\`` : ''} |`);
    }
  });

  it('gives the two commands, and CI runs the test one', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
    expect(ciRun).toMatch(/^npm ci$/m);
    expect(ciRun).toMatch(/^npm test$/m);
  });
});
