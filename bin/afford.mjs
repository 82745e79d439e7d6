#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

register();
// V8 flags first (AFFORD_V8_FLAGS), so they govern the heap for the whole run.
const { applyV8Flags } = await import('../src/cli/v8-flags.ts');
applyV8Flags();
await import('../src/cli.ts');
