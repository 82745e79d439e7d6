import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Logger } from '../logger.js';
import { serviceScope } from './context.js';
import { affordError } from '../domain/errors.js';

/**
 * While `afford serve` holds the DuckDB file, no other process can open it.
 * CLI commands then reach the service through a Unix socket that only this
 * machine can see, and the service runs them in-process on its own store.
 */
export function adminSocketPath(dbPath: string): string {
  const digest = createHash('sha1').update(path.resolve(dbPath)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `afford-${digest}.sock`);
}

interface AdminRequest {
  argv: string[];
}

interface AdminResponse {
  output: string;
  error?: string;
  exitCode: number;
}


/** Builds the `afford` command with what an argument list needs (src/cli/program.ts). */
export type BuildProgram = (argv?: readonly string[]) => Promise<Command>;
/** Commands that only make sense as their own process. */
const NOT_FORWARDED = new Set(['serve', 'demo', 'generate', 'produce']);

export function startAdminServer(
  deps: { store: Store; pipeline: IngestPipeline; config: Config; logger: Logger },
  buildProgram: BuildProgram,
): { close: () => Promise<void> } {
  const socketPath = adminSocketPath(deps.config.AFFORD_DB);
  if (existsSync(socketPath)) rmSync(socketPath);
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (request: AdminRequest): Promise<AdminResponse> => {
    const [command, sub] = request.argv;
    if (!command || NOT_FORWARDED.has(command) || (command === 'ingest' && sub === 'kafka')) {
      return { output: '', error: `'${request.argv.join(' ')}' cannot run while afford serve holds the database`, exitCode: 2 };
    }
    const scope = { store: deps.store, pipeline: deps.pipeline, config: deps.config, logger: deps.logger, output: [] as string[], errors: [] as string[], exitCode: 0 };
    try {
      await serviceScope.run(scope, async () => (await buildProgram(request.argv)).exitOverride().parseAsync(request.argv, { from: 'user' }));
      const errors = scope.errors.join('').trimEnd();
      return { output: scope.output.join(''), ...(errors ? { error: errors } : {}), exitCode: scope.exitCode };
    } catch (err) {
      return { output: scope.output.join(''), error: [...scope.errors, (err as Error).message].join(''), exitCode: 1 };
    }
  };

  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    let body = '';
    socket.on('data', (d) => (body += d.toString()));
    socket.on('end', () => {
      let request: AdminRequest;
      try {
        request = JSON.parse(body) as AdminRequest;
      } catch {
        socket.end(JSON.stringify({ output: '', error: 'bad admin request', exitCode: 2 }));
        return;
      }
      deps.logger.info({ command: request.argv.slice(0, 2).join(' ') }, 'admin command');
      const next = queue.then(() => run(request));
      queue = next.catch(() => undefined);
      void next.then((response) => socket.end(JSON.stringify(response)));
    });
  });
  server.listen(socketPath);
  return {
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        if (existsSync(socketPath)) rmSync(socketPath);
      }),
  };
}

/** File arguments are resolved here, since the service runs in another folder. */
function absolutePaths(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    const previous = argv[i - 1];
    const isFileArg = previous === '--pdf' || previous === '--out' || (previous === 'file' && arg !== '-') || (previous === 'verify' && argv[i - 2] === 'report');
    return isFileArg ? path.resolve(arg) : arg;
  });
}

export function forwardToService(dbPath: string, argv: readonly string[]): Promise<AdminResponse> {
  const socketPath = adminSocketPath(dbPath);
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let body = '';
    socket.on('connect', () => socket.end(JSON.stringify({ argv: absolutePaths(argv) } satisfies AdminRequest)));
    socket.on('data', (d) => (body += d.toString()));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(body) as AdminResponse);
      } catch (err) {
        reject(err as Error);
      }
    });
    socket.on('error', (err) =>
      reject(affordError('CLI_FAILED', `afford: ${dbPath} is in use by another process, and no afford service answers on ${socketPath}: ${err.message}`)),
    );
  });
}
