import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript, with no declarations
import { bundledCli } from '../../bin/cli-bundle.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** A tree shaped like the repo's: src/cli/main.ts, which imports another source and a package, and node_modules reached by a link. */
function tree(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'afford-bundle-'));
  mkdirSync(path.join(root, 'src', 'cli'), { recursive: true });
  mkdirSync(path.join(root, 'node_modules'));
  // The packages of the repo, as an installed copy has them.
  for (const name of ['esbuild', 'commander', '@esbuild']) {
    const at = path.join(root, 'node_modules', name);
    mkdirSync(path.dirname(at), { recursive: true });
    spawnSync('ln', ['-s', path.join(repo, 'node_modules', name), at]);
  }
  writeFileSync(path.join(root, 'src', 'where.ts'), 'export const here: string = import.meta.url;\n');
  writeFileSync(
    path.join(root, 'src', 'cli', 'main.ts'),
    "import { Command } from 'commander';\nconst { here } = await import('../where.js');\nconst name: string = new Command('x').name();\nconsole.log(JSON.stringify({ name, here, main: import.meta.url, version: 1 }));\n",
  );
  return root;
}

const run = (url: string) => JSON.parse(spawnSync(process.execPath, [fileURLToPath(url)], { encoding: 'utf8' }).stdout) as Record<string, unknown>;

describe('the bundled command line', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  it('is built once per version of the sources, keeps each source its own URL, and is rebuilt when a source changes', async () => {
    const root = tree();
    roots.push(root);
    const url = (await bundledCli(root)) as string;
    expect(url.startsWith(pathToFileURL(path.join(root, 'node_modules', '.cache', 'afford-cli')).href)).toBe(true);
    // Sources keep their own URL, so paths found from them are the sources' paths.
    expect(run(url)).toEqual({
      name: 'x',
      here: pathToFileURL(path.join(root, 'src', 'where.ts')).href,
      main: pathToFileURL(path.join(root, 'src', 'cli', 'main.ts')).href,
      version: 1,
    });
    expect(await bundledCli(root)).toBe(url);
    // A dynamic import stays a chunk of its own, loaded when it runs.
    expect(readdirSync(path.dirname(fileURLToPath(url))).length).toBeGreaterThan(1);

    writeFileSync(path.join(root, 'src', 'cli', 'main.ts'), "console.log(JSON.stringify({ version: 2 }));\n");
    const next = (await bundledCli(root)) as string;
    expect(next).not.toBe(url);
    expect(run(next)).toEqual({ version: 2 });
    // The bundle of the version before stays while a process may still run from it, and goes once a day old.
    const before = path.dirname(fileURLToPath(url));
    expect(existsSync(before)).toBe(true);
    utimesSync(before, new Date(Date.now() - 25 * 3600_000), new Date(Date.now() - 25 * 3600_000));
    writeFileSync(path.join(root, 'src', 'cli', 'main.ts'), "console.log(JSON.stringify({ version: 3 }));\n");
    expect(run((await bundledCli(root)) as string)).toEqual({ version: 3 });
    expect(existsSync(before)).toBe(false);
    expect(existsSync(path.dirname(fileURLToPath(next)))).toBe(true);
  });

  it('is built again when a file it takes in from outside src/ changes: a source beside it, or a package it bundles', async () => {
    const root = tree();
    roots.push(root);
    mkdirSync(path.join(root, 'jobs'));
    writeFileSync(path.join(root, 'jobs', 'job.ts'), 'export const job: number = 1;\n');
    // A package the bundle takes in, as it takes in @duckdb/node-api.
    const pkg = path.join(root, 'node_modules', '@duckdb', 'node-api');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@duckdb/node-api', type: 'module', main: 'index.js' }));
    writeFileSync(path.join(pkg, 'index.js'), 'export const engine = 1;\n');
    writeFileSync(
      path.join(root, 'src', 'cli', 'main.ts'),
      "import { job } from '../../jobs/job.js';\nimport { engine } from '@duckdb/node-api';\nconsole.log(JSON.stringify({ job, engine }));\n",
    );
    const first = (await bundledCli(root)) as string;
    expect(run(first)).toEqual({ job: 1, engine: 1 });
    expect(await bundledCli(root)).toBe(first);

    writeFileSync(path.join(root, 'jobs', 'job.ts'), 'export const job: number = 2;\n');
    const second = (await bundledCli(root)) as string;
    expect(second).not.toBe(first);
    expect(run(second)).toEqual({ job: 2, engine: 1 });

    writeFileSync(path.join(pkg, 'index.js'), 'export const engine = 2;\n');
    const third = (await bundledCli(root)) as string;
    expect(third).not.toBe(second);
    expect(run(third)).toEqual({ job: 2, engine: 2 });
    expect(await bundledCli(root)).toBe(third);
  });

  it('is a bundle of its own for a copy of the same sources elsewhere, even sharing the cache, so each reads its own files', async () => {
    const a = tree();
    const b = mkdtempSync(path.join(tmpdir(), 'afford-bundle-copy-'));
    roots.push(a, b);
    spawnSync('cp', ['-r', path.join(a, 'src'), path.join(b, 'src')]);
    // The copy's node_modules is the first tree's: one cache for both.
    spawnSync('ln', ['-s', path.join(a, 'node_modules'), path.join(b, 'node_modules')]);
    const first = (await bundledCli(a)) as string;
    const second = (await bundledCli(b)) as string;
    expect(second).not.toBe(first);
    expect(run(first).here).toBe(pathToFileURL(path.join(a, 'src', 'where.ts')).href);
    expect(run(second).here).toBe(pathToFileURL(path.join(b, 'src', 'where.ts')).href);
  });

  it('is not there when it cannot be built, and the caller runs the sources instead', async () => {
    const root = tree();
    roots.push(root);
    writeFileSync(path.join(root, 'src', 'cli', 'main.ts'), 'this is not TypeScript (\n');
    expect(await bundledCli(root)).toBeUndefined();
    // Nor where the cache cannot be written.
    const readOnly = tree();
    roots.push(readOnly);
    writeFileSync(path.join(readOnly, 'node_modules', '.cache'), 'a file where the cache folder would be');
    expect(await bundledCli(readOnly)).toBeUndefined();
  });

  it('takes @duckdb/node-api into the bundle, and leaves every other package, and its native binding, to be loaded from node_modules', async () => {
    const root = tree();
    roots.push(root);
    mkdirSync(path.join(root, 'node_modules', '@duckdb'));
    for (const name of readdirSync(path.join(repo, 'node_modules', '@duckdb'))) {
      spawnSync('ln', ['-s', path.join(repo, 'node_modules', '@duckdb', name), path.join(root, 'node_modules', '@duckdb', name)]);
    }
    writeFileSync(
      path.join(root, 'src', 'cli', 'main.ts'),
      "import { Command } from 'commander';\nimport { DuckDBInstance } from '@duckdb/node-api';\n" +
        "const conn = await (await DuckDBInstance.create(':memory:')).connect();\n" +
        "const answer = (await conn.runAndReadAll('SELECT 6 * 7 AS n')).getRowObjects()[0]?.n;\n" +
        "console.log(JSON.stringify({ name: new Command('y').name(), answer: Number(answer) }));\n",
    );
    const url = (await bundledCli(root)) as string;
    // It runs: the bundled library loads DuckDB's native binding from node_modules.
    expect(run(url)).toEqual({ name: 'y', answer: 42 });
    const code = readdirSync(path.dirname(fileURLToPath(url))).map((f) => readFileSync(path.join(path.dirname(fileURLToPath(url)), f), 'utf8')).join('\n');
    expect(code).not.toMatch(/from ["']@duckdb\/node-api["']/);
    expect(code).toContain('DuckDBInstance');
    expect(code).toMatch(/from ["']commander["']/);
    expect(code).toMatch(/@duckdb\/node-bindings/);
  });

  it('runs the real command line', () => {
    const r = spawnSync(process.execPath, [path.join(repo, 'bin', 'afford.mjs'), '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('ingest');
    expect(readdirSync(path.join(repo, 'node_modules', '.cache', 'afford-cli')).filter((d) => !d.endsWith('.tmp')).length).toBeGreaterThan(0);
  });
});
