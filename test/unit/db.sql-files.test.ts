import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SQL_DIR } from '../../src/db/sql-files.js';

const ROOT = path.resolve(SQL_DIR, '..');

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** Every SQL file by the name code loads it by: `queries/api/get-client` for sql/queries/api/get-client.sql. */
const SQL_NAMES = filesUnder('sql', '.sql').map((f) => f.slice('sql/'.length, -'.sql'.length)).sort();

/** Code without its comments, which may name SQL files by way of example. */
function codeOf(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
}

/**
 * The SQL names the code loads: string literals under queries/, jobs/ or
 * migrations/ (a template such as `queries/ingest/apply-${kind}s` stands for
 * every file it can name), a job step's `sql:` (loaded as jobs/<name>), and
 * every migration (applied in order by listSqlFiles('migrations')).
 */
function loadedNames(): { literal: Array<{ file: string; name: string; pattern: RegExp }>; used: Set<string> } {
  const literal: Array<{ file: string; name: string; pattern: RegExp }> = [];
  for (const file of [...filesUnder('src', '.ts'), ...filesUnder('jobs', '.ts')]) {
    const code = codeOf(file);
    for (const m of code.matchAll(/['`]((?:queries|jobs|migrations)\/[\w/${}.-]+)['`]/g)) {
      const name = m[1] ?? '';
      const source = name.split(/\$\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+');
      literal.push({ file, name, pattern: new RegExp(`^${source}$`) });
    }
    if (file.startsWith('jobs')) {
      for (const m of code.matchAll(/\bsql: '([\w/-]+)'/g)) literal.push({ file, name: `jobs/${m[1] ?? ''}`, pattern: new RegExp(`^jobs/${m[1] ?? ''}$`) });
    }
  }
  const used = new Set(SQL_NAMES.filter((n) => n.startsWith('migrations/') || literal.some((l) => l.pattern.test(n))));
  return { literal, used };
}

/** The leading comment lines of a SQL file. */
function header(text: string): string {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => !line.startsWith('--'));
  return lines.slice(0, end === -1 ? lines.length : end).join('\n');
}

describe('the SQL files', () => {
  it('exist for every SQL name the code loads', () => {
    const { literal } = loadedNames();
    expect(literal.length).toBeGreaterThan(50);
    const missing = literal.filter((l) => !SQL_NAMES.some((n) => l.pattern.test(n))).map((l) => `${l.file}: ${l.name}`);
    expect(missing).toEqual([]);
  });

  it('are each loaded by the code', () => {
    const { used } = loadedNames();
    expect(SQL_NAMES.filter((n) => !used.has(n))).toEqual([]);
  });

  it('open with a comment that says what they do and names every parameter they bind', () => {
    const problems: string[] = [];
    for (const name of SQL_NAMES) {
      const text = readFileSync(path.join(SQL_DIR, `${name}.sql`), 'utf8');
      const head = header(text);
      if (head.replace(/^--\s*/gm, '').trim().length < 10) {
        problems.push(`${name}: no header comment`);
        continue;
      }
      const body = text.split('\n').filter((line) => !line.trimStart().startsWith('--')).join('\n');
      const params = [...new Set([...body.matchAll(/\$([A-Za-z_]\w*)/g)].map((m) => m[1] ?? ''))];
      const unnamed = params.filter((p) => !new RegExp(`\\$${p}\\b`).test(head));
      if (unnamed.length) problems.push(`${name}: header does not name ${unnamed.map((p) => `$${p}`).join(', ')}`);
    }
    expect(problems).toEqual([]);
  });
});
