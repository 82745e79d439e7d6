import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository's rules/ folder: rules that are data (lists, patterns, thresholds), each stating its sources. */
export const RULES_DIR = fileURLToPath(new URL('../../rules/', import.meta.url));

const cache = new Map<string, unknown>();

/** Parses `rules/<name>.json` once; the caller checks its shape. */
export function rulesFile(name: string): unknown {
  let value = cache.get(name);
  if (value === undefined) {
    value = JSON.parse(readFileSync(path.join(RULES_DIR, `${name}.json`), 'utf8')) as unknown;
    cache.set(name, value);
  }
  return value;
}
