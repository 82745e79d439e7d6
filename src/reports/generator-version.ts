import { readFileSync } from 'node:fs';

/**
 * What a report says generated it: the package name and version, read once
 * from package.json so a release bump needs no code change.
 */
interface PackageJson {
  name: string;
  version: string;
}

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageJson;

export const GENERATOR = Object.freeze({ name: pkg.name, version: pkg.version });
