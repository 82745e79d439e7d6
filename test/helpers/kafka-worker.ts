import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

/**
 * `afford ingest kafka` (or `afford serve`) as a real child process, watched through its pino
 * lines on standard error (the DuckDB file cannot be opened from outside
 * while the worker holds it).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface WorkerLine {
  msg?: string;
  level?: number;
  topic?: string;
  partition?: number;
  offsets?: Record<string, string>;
  assignment?: Record<string, number[]>;
  [field: string]: unknown;
}

export interface WorkerOptions {
  db: string;
  brokers: string;
  groupId: string;
  topics: readonly string[];
  shard?: string;
  batchRows?: number;
  /** Share one map between a worker and its restarts, so progress carries over. */
  committed?: Map<string, bigint>;
  env?: Record<string, string>;
  /** The afford command to run; `ingest kafka` unless told. */
  command?: string[];
}

export class Worker {
  /** Next offset per `topic#partition`, from the worker's "Kafka batch committed" lines and where it starts each partition. */
  readonly committed: Map<string, bigint>;
  readonly lines: WorkerLine[] = [];
  commits = 0;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiters = new Set<() => void>();
  private readonly child: ChildProcess;

  constructor(options: WorkerOptions) {
    this.committed = options.committed ?? new Map();
    this.child = spawn(process.execPath, ['bin/afford.mjs', ...(options.command ?? ['ingest', 'kafka'])], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        AFFORD_DB: options.db,
        AFFORD_KAFKA_BROKERS: options.brokers,
        AFFORD_KAFKA_GROUP_ID: options.groupId,
        AFFORD_KAFKA_TOPICS: options.topics.join(','),
        AFFORD_SHARD: options.shard ?? '0/1',
        AFFORD_INGEST_BATCH_ROWS: String(options.batchRows ?? 5000),
        AFFORD_LOG_LEVEL: 'info',
        ...options.env,
      },
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => this.notify());
    createInterface({ input: this.child.stderr as NodeJS.ReadableStream }).on('line', (text) => {
      let line: WorkerLine;
      try {
        line = JSON.parse(text) as WorkerLine;
      } catch {
        line = { msg: text };
      }
      this.lines.push(line);
      // The worker's own cure for a partition that stopped behind its end hides the stop from the test: say it here.
      if (line.msg?.startsWith('partition is behind its end')) process.stderr.write(`a Kafka worker read a stopped partition again: ${text}\n`);
      // Where the worker starts each partition is what its store holds: a transaction committed just before a SIGKILL
      // may never have had its log line written, and the store, not the log, is the truth of what was committed.
      if (line.msg === 'partitions assigned' && Array.isArray(line['seeks'])) {
        for (const seek of line['seeks'] as string[]) {
          const at = seek.lastIndexOf('@');
          const [k, next] = [seek.slice(0, at), BigInt(seek.slice(at + 1))];
          if (next > (this.committed.get(k) ?? 0n)) this.committed.set(k, next);
        }
      }
      if (line.msg === 'Kafka batch committed' && line.offsets) {
        // "topic#partition": "first..next", one entry per partition in the transaction.
        for (const [k, range] of Object.entries(line.offsets)) this.committed.set(k, BigInt(range.split('..')[1] ?? '0'));
        this.commits++;
      }
      this.notify();
    });
  }

  /** The process id, for reading its peak memory from /proc. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  private notify(): void {
    for (const w of this.waiters) w();
  }

  /**
   * Resolves once `predicate` holds, checked after every log line; rejects if the worker exits first or time runs out.
   * A time-out says `detail()` too, with the worker's assignments, warnings and errors, which the last lines may not reach.
   */
  async waitFor(what: string, predicate: () => boolean, timeoutMs = 60_000, detail: () => string = () => ''): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`timed out waiting for ${what}${detail()}; ${this.notable()}last lines:\n${this.tail()}`)), timeoutMs);
      const check = (): void => {
        if (predicate()) done();
        else if (!this.running) done(new Error(`worker exited while waiting for ${what}; last lines:\n${this.tail()}`));
      };
      const done = (err?: Error): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (err) reject(err);
        else resolve();
      };
      this.waiters.add(check);
    });
  }

  /** Waits until every partition in `ends` (`topic#partition` -> high watermark) is committed up to its end. */
  waitForEnds(ends: ReadonlyMap<string, bigint>, timeoutMs?: number): Promise<void> {
    const short = (): [string, bigint][] => [...ends].filter(([k, end]) => end !== 0n && (this.committed.get(k) ?? 0n) < end);
    const detail = (): string => ` (short of their ends: ${short().map(([k, end]) => `${k} at ${this.committed.get(k) ?? 0n} of ${end}`).join(', ')})`;
    return this.waitFor('the end of every partition', () => short().length === 0, timeoutMs, detail);
  }

  /** The worker's assignments, warnings and errors, for a failure's message. */
  private notable(): string {
    const lines = this.lines.filter((l) => l.msg === 'partitions assigned' || (l.level ?? 0) >= 40).slice(-10);
    return lines.length === 0 ? '' : `assignments, warnings and errors:\n${lines.map((l) => JSON.stringify(l).slice(0, 1500)).join('\n')}\n`;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  tail(n = 15): string {
    return this.lines
      .slice(-n)
      .map((l) => JSON.stringify(l).slice(0, 400))
      .join('\n');
  }
}
