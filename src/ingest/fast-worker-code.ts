import { fileURLToPath } from 'node:url';

let code: Promise<string> | undefined;

/**
 * The fast path's worker thread as one CommonJS script, bundled by esbuild
 * from fast-worker.ts and what it imports, once per process. The sources are
 * TypeScript, and a thread that loaded them through tsx would carry a
 * loader of its own: measured, a worker started so held some 46 MiB more
 * than an empty one before it did any work, this script 11 MiB.
 */
export function fastWorkerCode(): Promise<string> {
  code ??= (async () => {
    const esbuild = await import('esbuild');
    const entry = fileURLToPath(new URL('./fast-worker.ts', import.meta.url));
    const built = await esbuild.build({ entryPoints: [entry], bundle: true, format: 'cjs', platform: 'node', target: 'node20', write: false, logLevel: 'silent' });
    const text = built.outputFiles[0]?.text;
    if (text === undefined) throw new Error('esbuild wrote no script for the fast path worker');
    return text;
  })();
  return code;
}
