#!/usr/bin/env node
// Runs the TypeScript sources with no build step: from a bundle of them that
// is built on first use and cached (cli-bundle.mjs), or, when that cannot
// be, directly through tsx.
import { bundledCli } from './cli-bundle.mjs';

const bundled = await bundledCli();
if (bundled !== undefined) {
  await import(bundled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
