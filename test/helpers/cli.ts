import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const BIN = path.join(ROOT, 'bin/afford.mjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `afford ARGS` as its own process, as a person would. */
export function afford(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Served {
  child: ChildProcess;
  /** Everything the service logged so far. */
  log: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

/** `afford serve` as a child process, once it says it is serving. */
export async function startServe(env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const collect = (d: Buffer) => (log += d.toString());
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = () => log.includes('afford is serving') && resolve();
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited with ${String(code)}: ${log}`)));
  });
  return {
    child,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
