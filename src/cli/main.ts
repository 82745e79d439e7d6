/**
 * What `afford` runs: V8's flags first (AFFORD_V8_FLAGS), so that they
 * govern the heap for the whole run, then the command line. bin/afford.mjs
 * runs it from the cached bundle of these sources (bin/cli-bundle.mjs), or
 * through tsx.
 */
import { applyV8Flags } from './v8-flags.js';

applyV8Flags();
await import('../cli.js');
