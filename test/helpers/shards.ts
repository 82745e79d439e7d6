import path from 'node:path';
import { afford, type CliRun } from './cli.js';
import { TEST_TOKEN_SECRET } from './api.js';
import { freePort } from './front.js';
import { TOPICS } from './kafka-data.js';
import { Worker } from './kafka-worker.js';

/**
 * `afford serve` nodes on the test broker: the shards of one deployment
 * (one consumer group, AFFORD_SHARD=k/n, the shared client-state topic), or a
 * single node on a group of its own, as the reference.
 */

export const CLIENT_STATE_TOPIC = 'afford.client-state.v1';

export interface NodeOptions {
  dir: string;
  name: string;
  brokers: string;
  groupId: string;
  shard: string;
  /** Shards share it; the single reference node runs without one. */
  clientStateTopic?: string;
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
      AFFORD_TOKEN_SECRET: TEST_TOKEN_SECRET,
      AFFORD_WEBHOOK_RETRY_BASE_MS: '100',
      AFFORD_CLIENT_STATE_TOPIC: options.clientStateTopic ?? '',
      AFFORD_LOG_LEVEL: 'info',
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
  cli(args: string[]): Promise<CliRun> {
    return afford(args, this.env);
  }
}
