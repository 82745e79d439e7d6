// The fast path's worker thread starts here: the sources are TypeScript,
// run through tsx as the CLI runs them (bin/afford.mjs), so the thread
// registers tsx before it loads them.
import { register } from 'tsx/esm/api';

register();
await import('./fast-worker.ts');
