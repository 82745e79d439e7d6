// Entry of a PDF worker thread (pdf-pool.ts). A worker does not inherit the
// TypeScript loader of the thread that starts it, so it registers tsx itself,
// as bin/afford.mjs does, before loading the renderer.
import { register } from 'tsx/esm/api';

register();
await import('./pdf-worker.ts');
