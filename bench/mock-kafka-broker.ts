import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The test broker: librdkafka's mock cluster (a real Kafka protocol server)
 * in a child process on a loopback port, built from mock-kafka-broker.c with the
 * system C compiler. Missing tools fail the tests loudly: Kafka tests never
 * skip.
 */

const SOURCE = fileURLToPath(new URL('./mock-kafka-broker.c', import.meta.url));
const HEADER = '/usr/include/librdkafka/rdkafka_mock.h';
const INSTALL_HINT = 'run test/install-tools.sh (apt-get install kcat librdkafka-dev gcc)';

let compiled: string | undefined;

function compileHelper(): string {
  if (compiled) return compiled;
  if (spawnSync('cc', ['--version']).error) throw new Error(`Kafka tests need a C compiler ('cc' was not found): ${INSTALL_HINT}`);
  if (!existsSync(HEADER)) throw new Error(`Kafka tests need librdkafka-dev (${HEADER} is missing): ${INSTALL_HINT}`);
  // The tests read topics back with kcat, a client other than the one under test.
  if (spawnSync('kcat', ['-V']).error) throw new Error(`Kafka tests need kcat ('kcat' was not found): ${INSTALL_HINT}`);
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'afford-mock-broker-')), 'mock-broker');
  const build = spawnSync('cc', ['-O1', '-o', out, SOURCE, '-lrdkafka'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`could not compile the mock broker (${INSTALL_HINT}):\n${build.stderr}`);
  compiled = out;
  return out;
}

export interface MockBroker {
  /** host:port for AFFORD_KAFKA_BROKERS. */
  bootstrap: string;
  /** Drops every connection and refuses new ones, until up(). */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a one-broker cluster with the given topics (name -> partitions). */
export async function startMockBroker(topics: Record<string, number>): Promise<MockBroker> {
  const binary = compileHelper();
  const child: ChildProcessWithoutNullStreams = spawn(binary, Object.entries(topics).map(([t, n]) => `${t}:${n}`), { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const nextLine = (what: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mock broker: no answer to ${what}; stderr:\n${stderr}`)), 10_000);
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (err) => waiting.shift()?.(`error ${err.message}`));

  const first = await nextLine('start');
  const match = /^bootstrap (\S+)$/.exec(first);
  if (!match?.[1]) throw new Error(`mock broker did not start: ${first}\n${stderr}`);

  const command = async (cmd: 'down' | 'up'): Promise<void> => {
    const answer = nextLine(cmd);
    child.stdin.write(`${cmd}\n`);
    const line = await answer;
    if (line !== `ok ${cmd}`) throw new Error(`mock broker: ${cmd} failed: ${line}`);
  };

  return {
    bootstrap: match[1],
    down: () => command('down'),
    up: () => command('up'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
