import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './front.js';
import { Worker } from './kafka-worker.js';

/**
 * `afford serve` nodes on the test broker: the shards of one deployment
 * (one consumer group, AFFORD_SHARD=k/n, the shared client-state topic), or a
 * single node on a group of its own, as the reference.
 */

// No vitest here: bench/shards.ts starts nodes too.
export const CLIENT_STATE_TOPIC = 'afford.client-state.v1';
const TOPICS = ['afford.transactions.v1', 'afford.accounts.v1', 'afford.customers.v1', 'afford.payments.v1'];
const BIN = fileURLToPath(new URL('../../bin/afford.mjs', import.meta.url));
/** Every node of a deployment signs tokens with the same key. */
const TOKEN_SECRET = 'afford-shards-token-secret-0123456789-abcdef';

export interface NodeOptions {
  dir: string;
  name: string;
  brokers: string;
  groupId: string;
  shard: string;
  /** Shards share it; the single reference node runs without one. */
  clientStateTopic?: string;
  /** Settings over the defaults below. */
  env?: Record<string, string>;
}

export class ServeNode {
  readonly env: NodeJS.ProcessEnv;
  readonly committed = new Map<string, bigint>();
  worker!: Worker;

  private constructor(
    readonly options: NodeOptions,
    readonly port: number,
  ) {
    this.env = {
      ...process.env,
      AFFORD_DB: path.join(options.dir, `${options.name}.duckdb`),
      AFFORD_EXPORT_DIR: path.join(options.dir, `${options.name}-export`),
      AFFORD_HOST: '127.0.0.1',
      AFFORD_PORT: String(port),
      AFFORD_KAFKA_BROKERS: options.brokers,
      AFFORD_KAFKA_GROUP_ID: options.groupId,
      AFFORD_KAFKA_TOPICS: TOPICS.join(','),
      AFFORD_SHARD: options.shard,
      AFFORD_KAFKA_SESSION_TIMEOUT_MS: '6000',
      AFFORD_KAFKA_BATCH_WAIT_MS: '20',
      AFFORD_TOKEN_SECRET: TOKEN_SECRET,
      AFFORD_WEBHOOK_RETRY_BASE_MS: '100',
      AFFORD_CLIENT_STATE_TOPIC: options.clientStateTopic ?? '',
      AFFORD_LOG_LEVEL: 'info',
      ...options.env,
    };
  }

  static async start(options: NodeOptions): Promise<ServeNode> {
    const node = new ServeNode(options, await freePort());
    await node.restart();
    return node;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `http://${this.address}`;
  }

  /** Starts the process (again, after kill), on the same file and port; resolves once it serves. */
  async restart(): Promise<void> {
    this.worker = new Worker({
      db: this.env.AFFORD_DB as string,
      brokers: this.options.brokers,
      groupId: this.options.groupId,
      topics: TOPICS,
      shard: this.options.shard,
      committed: this.committed,
      command: ['serve'],
      env: Object.fromEntries(Object.entries(this.env).filter((e): e is [string, string] => e[1] !== undefined)),
    });
    await this.worker.waitFor(`${this.options.name} serving`, () => this.worker.lines.some((l) => l.msg === 'afford is serving'));
  }

  /** An afford command beside the running node (forwarded to it over its admin socket). */
  cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: this.env }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }
}
