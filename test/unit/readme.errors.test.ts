import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from '../../src/api/errors.js';

const readme = readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '../../README.md'), 'utf8');

/** The rows of the table under "### Errors" in "The read API": [status cell, whole row]. */
function errorRows(): Array<[string, string]> {
  const start = readme.indexOf('### Errors');
  expect(start).toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf('\n#', start + 1));
  return section
    .split('\n')
    .filter((line) => /^\| \d{3} \|/.test(line))
    .map((line) => [line.split('|')[1]?.trim() ?? '', line]);
}

describe("the README's Errors section", () => {
  it('lists every code_id the API can return, with its status', () => {
    const rows = errorRows();
    const missing = Object.entries(ERROR_TABLE)
      .filter(([, def]) => def.status < 500)
      .filter(([, def]) => !rows.some(([status, row]) => status === String(def.status) && row.includes(`code_id: "${def.codeId}"`)))
      .map(([name, def]) => `${name}: ${def.status} ${def.codeId}`);
    expect(missing).toEqual([]);
  });

  it('gives every server error with its status and message (5xx bodies carry no code_id)', () => {
    const rows = errorRows();
    const missing = Object.entries(ERROR_TABLE)
      .filter(([, def]) => def.status >= 500)
      .filter(([, def]) => !rows.some(([status, row]) => status === String(def.status) && row.includes(`message: "${def.message}"`)))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('names no code_id that the API does not have', () => {
    const known = new Set(Object.values(ERROR_TABLE).map((def) => def.codeId));
    const named = errorRows().flatMap(([, row]) => [...row.matchAll(/code_id: "([a-z_]+)"/g)].map((m) => m[1] ?? ''));
    expect(named.filter((code) => !known.has(code))).toEqual([]);
  });
});
