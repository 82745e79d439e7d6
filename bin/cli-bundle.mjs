// The command line as JavaScript bundled from the TypeScript sources, built
// with esbuild the first time a version of the sources runs and kept under
// node_modules/.cache, so that a run loads a few files rather than every
// source through tsx's loader (about 0.4 s of each run). The bundle is
// split at the command modules' dynamic imports, as the sources are, so a
// command still loads only what it uses. Each source keeps its own
// import.meta.url, so paths found from it (sql/, rules/, the worker
// scripts) are what they are in the sources. Any change to a file it was
// built from (under src/, jobs/ and elsewhere, and the packages it takes
// in) or to this file makes a new bundle (older ones go once a day old);
// what cannot be built or cached leaves the caller to run the sources
// through tsx.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** How long the bundle of a version no longer current is kept. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** Beside the bundles: the files the latest bundle was built from, relative to the root (see versionKey). */
const INPUTS_FILE = 'inputs.json';

/** Every file under `dir`, in a stable order. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : []));
}

/** The files the latest bundle in `cache` was built from, as it recorded them; none before the first. */
function recordedInputs(cache) {
  try {
    const inputs = JSON.parse(readFileSync(path.join(cache, INPUTS_FILE), 'utf8'));
    return Array.isArray(inputs) ? inputs.filter((f) => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * A name for this version of the sources under `root` and of this build:
 * the contents of every file under src/ and of every file the latest
 * bundle was built from (`inputs`: sources outside src/, such as jobs/,
 * and the packages bundled in), hashed with where they are, since the
 * bundle names its sources' paths (a copy of the tree elsewhere gets a
 * bundle of its own). A file that joins the bundle is imported by one
 * already in it, which changes, so the bundle is built again and records
 * it; a file gone is hashed as missing.
 */
function versionKey(root, inputs) {
  const hash = createHash('sha256');
  hash.update(realpathSync(root));
  hash.update('\0');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  const files = new Set([...filesUnder(path.join(root, 'src')).map((file) => path.relative(root, file)), ...inputs]);
  for (const file of [...files].sort()) {
    hash.update(file);
    hash.update('\0');
    try {
      hash.update(readFileSync(path.join(root, file)));
    } catch {
      hash.update('\0missing');
    }
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 20);
}

/** Replaces import.meta.url in each source with that source's own URL. */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/**
 * Leaves packages out of the bundle, to be loaded from node_modules as they
 * are, but for @duckdb/node-api: a CommonJS package of some 180 modules,
 * which Node loads one file at a time and scans each for its exports
 * (about 0.13 s of every run, against about 0.01 s bundled). Its native
 * binding stays a package of its own, required as it was.
 */
const BUNDLED_PACKAGES = ['@duckdb/node-api'];
const packagesOutside = {
  name: 'packages-outside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (path.isAbsolute(args.path)) return undefined;
      if (BUNDLED_PACKAGES.some((name) => args.path === name || args.path.startsWith(`${name}/`))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** CommonJS bundled into the ESM chunks still calls require() for what it leaves outside (the native binding): each chunk gets one. */
const REQUIRE_BANNER = "import { createRequire as __aflCreateRequire } from 'node:module'; const require = __aflCreateRequire(import.meta.url);";

/** Builds the bundle of the sources under `root` into `cache`, and returns the folder it is in. */
async function build(root, cache) {
  const esbuild = await import('esbuild');
  const building = path.join(cache, `building.${process.pid}.tmp`);
  rmSync(building, { recursive: true, force: true });
  const { metafile } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: path.join(root, 'src', 'cli', 'main.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: building,
    outExtension: { '.js': '.mjs' },
    banner: { js: REQUIRE_BANNER },
    plugins: [packagesOutside, sourceUrls],
    metafile: true,
    logLevel: 'silent',
  });
  // Named by what it was built from, which may be more than the name it was looked for by.
  const inputs = Object.keys(metafile.inputs).sort();
  const dir = path.join(cache, versionKey(root, inputs));
  const recording = path.join(cache, `${INPUTS_FILE}.${process.pid}.tmp`);
  writeFileSync(recording, JSON.stringify(inputs));
  renameSync(recording, path.join(cache, INPUTS_FILE));
  try {
    renameSync(building, dir);
  } catch (err) {
    // Another run built the same version meanwhile: its bundle is as good.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  // Bundles of other versions are removed once a day old: a process started from one (a service) may still load its chunks.
  for (const other of readdirSync(cache)) {
    const at = path.join(cache, other);
    if (other !== path.basename(dir) && other !== INPUTS_FILE && Date.now() - statSync(at).mtimeMs > KEEP_MS) rmSync(at, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The URL of the bundled command line's entry (src/cli/main.ts under
 * `root`), built first if this version of the sources has none; undefined
 * when it cannot be.
 */
export async function bundledCli(root = ROOT) {
  try {
    const cache = path.join(root, 'node_modules', '.cache', 'afford-cli');
    const found = path.join(cache, versionKey(root, recordedInputs(cache)));
    if (existsSync(path.join(found, 'main.mjs'))) return pathToFileURL(path.join(found, 'main.mjs')).href;
    mkdirSync(cache, { recursive: true });
    return pathToFileURL(path.join(await build(root, cache), 'main.mjs')).href;
  } catch {
    return undefined;
  }
}
