import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

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
  /** Where it listens, from its "afford is serving" log line. */
  address: string;
  /** Everything the service logged so far. */
  log: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

/** `afford serve` as a child process, once it logs that it is serving (at level info, whatever `env` says, so that the line is there). */
export async function startServe(env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...env, AFFORD_LOG_LEVEL: 'info' }, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const collect = (d: Buffer) => (log += d.toString());
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const address = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /"address":"(http:\/\/[^"]+)"[^\n]*"msg":"afford is serving"/.exec(log);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited with ${String(code)}: ${log}`)));
  });
  return {
    child,
    address,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface ServeFixture {
  /** The temporary folder holding the database (afford.duckdb) and the exports (export/). */
  dir: string;
  /** The settings the service runs with; commands given them reach the running service. */
  env: NodeJS.ProcessEnv;
  /** The running service (once the tests have started). */
  readonly serve: Served;
}

/**
 * `afford serve` on a new database in a temporary folder, started before the
 * tests of the enclosing block (or file) and stopped and removed after them.
 */
export function useServe(prefix: string, extraEnv: Record<string, string> = {}): ServeFixture {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const env = {
    ...process.env,
    AFFORD_DB: path.join(dir, 'afford.duckdb'),
    AFFORD_EXPORT_DIR: path.join(dir, 'export'),
    AFFORD_PORT: '0',
    AFFORD_LOG_LEVEL: 'info',
    ...extraEnv,
  };
  let served: Served | undefined;
  beforeAll(async () => {
    served = await startServe(env);
  });
  afterAll(async () => {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    env,
    get serve(): Served {
      if (!served) throw new Error('afford serve has not started yet');
      return served;
    },
  };
}
