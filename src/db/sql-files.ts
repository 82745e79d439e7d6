import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository's sql/ folder. SQL lives in files; code loads it by name. */
export const SQL_DIR = fileURLToPath(new URL('../../sql/', import.meta.url));

const cache = new Map<string, string>();

/** Loads `sql/<name>.sql`, for example `queries/api/get-client`. */
export function sqlFile(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(SQL_DIR, `${name}.sql`), 'utf8');
    cache.set(name, text);
  }
  return text;
}

export function listSqlFiles(folder: string): string[] {
  return readdirSync(path.join(SQL_DIR, folder))
    .filter((f) => f.endsWith('.sql'))
    .sort();
}
