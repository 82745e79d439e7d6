import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

const readme = readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '../../README.md'), 'utf8');

describe("the README's command table", () => {
  it('has a row for every command of afford', async () => {
    const rows = readme.split('\n').filter((l) => l.startsWith('| `afford '));
    const missing = (await buildProgram()).commands.map((c) => c.name()).filter((name) => !rows.some((r) => r.startsWith(`| \`afford ${name}`)));
    expect(missing).toEqual([]);
  });

  it('is built, for one command, with that command alone, so that a run imports only what it uses', async () => {
    const all = (await buildProgram()).commands.map((c) => c.name());
    expect((await buildProgram(['ingest', 'file', '-'])).commands.map((c) => c.name())).toEqual(['ingest', 'produce']);
    expect((await buildProgram(['jobs', 'run', 'all'])).commands.map((c) => c.name())).toEqual(['jobs']);
    // Help and mistakes see every command.
    expect((await buildProgram(['--help'])).commands.map((c) => c.name())).toEqual(all);
    expect((await buildProgram(['bogus'])).commands.map((c) => c.name())).toEqual(all);
  });
});
