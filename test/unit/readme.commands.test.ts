import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

const readme = readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '../../README.md'), 'utf8');

describe("the README's command table", () => {
  it('has a row for every command of afford', () => {
    const rows = readme.split('\n').filter((l) => l.startsWith('| `afford '));
    const missing = buildProgram().commands.map((c) => c.name()).filter((name) => !rows.some((r) => r.startsWith(`| \`afford ${name}`)));
    expect(missing).toEqual([]);
  });
});
