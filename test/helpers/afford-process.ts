import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const AFFORD_BIN = path.join(ROOT, 'bin/afford.mjs');

/** Runs one `afford` command to its end. */
export function afford(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [AFFORD_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `afford serve` as a child process, once it logs that it is serving; its address is read from that log line. */
export async function startServe(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; address: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [AFFORD_BIN, 'serve'], { env: { ...env, AFFORD_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const address = await new Promise<string>((resolve, reject) => {
    let log = '';
    child.stderr?.on('data', (d: Buffer) => {
      log += d.toString();
      const match = /"address":"(http:\/\/[^"]+)"[^\n]*"msg":"afford is serving"/.exec(log);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code}: ${log}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.on('close', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { child, address, stop };
}
