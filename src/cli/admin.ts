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

  const sockets = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client gone before its answer (a command stopped with Ctrl-C) is no fault of the service's: without a
    // listener, writing the answer to it was an uncaught error that ended the whole service.
    socket.on('error', (err) => deps.logger.warn({ err }, 'an admin client went away before its answer'));
    const answer = (response: AdminResponse): void => {
      if (!socket.destroyed) socket.end(JSON.stringify(response));
    };
    let body = '';
    socket.on('data', (d) => (body += d.toString()));
    socket.on('end', () => {
      const request = adminRequestOf(body);
      if (!request) {
        answer({ output: '', error: 'bad admin request', exitCode: 2 });
        return;
      }
      deps.logger.info({ command: request.argv.slice(0, 2).join(' ') }, 'admin command');
      const next = queue.then(() => run(request));
      queue = next.catch(() => undefined);
      void next.then(answer);
    });
  });
  server.listen(socketPath);
  return {
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A client still connected (idle, or waiting for a command cut short) would hold the close, and the stop.
        for (const socket of sockets) socket.destroy();
        if (existsSync(socketPath)) rmSync(socketPath);
      }),
  };
}

/** The request a client sent, or undefined when it is not one: JSON with `argv`, a list of texts. */
function adminRequestOf(body: string): AdminRequest | undefined {
  try {
    const request = JSON.parse(body) as Partial<AdminRequest> | null;
    return request && Array.isArray(request.argv) && request.argv.every((a) => typeof a === 'string') ? (request as AdminRequest) : undefined;
  } catch {
    return undefined;
  }
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
