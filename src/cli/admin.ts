import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommanderError, type Command } from 'commander';
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
/** How often a running command's socket is written to, to notice a caller that went away. */
const HEARTBEAT_MS = 1000;
/** Commands that only make sense as their own process. */
const NOT_FORWARDED = new Set(['serve', 'demo', 'generate', 'produce']);

export function startAdminServer(
  deps: { store: Store; pipeline: IngestPipeline; config: Config; logger: Logger },
  buildProgram: BuildProgram,
): { close: () => Promise<void> } {
  const socketPath = adminSocketPath(deps.config.AFFORD_DB);
  // The socket only forwards command-line commands: a path it cannot take (a folder that is not there, another
  // user's file) costs that, and is said, but does not stop the service, whose API is already up.
  const unusable = (err: unknown): void =>
    deps.logger.error({ err, socket: socketPath }, 'the admin socket cannot listen: afford commands run beside this service will not reach it');
  try {
    if (existsSync(socketPath)) rmSync(socketPath);
  } catch (err) {
    unusable(err);
  }
  let queue: Promise<unknown> = Promise.resolve();

  const run = async (request: AdminRequest, signal: AbortSignal): Promise<AdminResponse> => {
    const [command, sub] = request.argv;
    // Its caller went away while it waited for the commands before it: nobody wants it run.
    if (signal.aborted) return { output: '', error: 'the caller went away', exitCode: 130 };
    if (!command || NOT_FORWARDED.has(command) || (command === 'ingest' && sub === 'kafka')) {
      return { output: '', error: `'${request.argv.join(' ')}' cannot run while afford serve holds the database`, exitCode: 2 };
    }
    const scope = { store: deps.store, pipeline: deps.pipeline, config: deps.config, logger: deps.logger, output: [] as string[], errors: [] as string[], exitCode: 0, signal };
    try {
      const program = await buildProgram(request.argv);
      // Every command, not the root alone: a subcommand's usage error would otherwise exit the service itself, and
      // print to the service's own output. Its words go to the caller.
      for (const command of allCommands(program)) {
        command.exitOverride().configureOutput({ writeOut: (text) => scope.output.push(text), writeErr: (text) => scope.errors.push(text) });
      }
      await serviceScope.run(scope, async () => program.parseAsync(request.argv, { from: 'user' }));
      const errors = scope.errors.join('').trimEnd();
      return { output: scope.output.join(''), ...(errors ? { error: errors } : {}), exitCode: scope.exitCode };
    } catch (err) {
      if (err instanceof CommanderError) {
        // Help and the version end a command as success; a usage error has been written to the caller already.
        return { output: scope.output.join(''), error: scope.errors.join('').trimEnd() || undefined, exitCode: err.exitCode === 0 ? 0 : 2 };
      }
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
    // Aborted when the caller goes away before its answer. With its side of the socket already ended (it sends its
    // request whole), a caller that dies is only noticed by writing to it: a space every second, which the caller's
    // JSON.parse of the answer skips.
    const gone = new AbortController();
    let beat: NodeJS.Timeout | undefined;
    socket.on('close', () => {
      clearInterval(beat);
      gone.abort();
    });
    const answer = (response: AdminResponse): void => {
      clearInterval(beat);
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
      const command = request.argv.slice(0, 2).join(' ');
      deps.logger.info({ command }, 'admin command');
      let answered = false;
      beat = setInterval(() => {
        if (!socket.destroyed) socket.write(' ');
      }, HEARTBEAT_MS);
      gone.signal.addEventListener('abort', () => {
        if (answered) return;
        deps.logger.info({ command }, 'admin command: its caller went away; it stops at its next safe point, or does not start');
      });
      const next = queue.then(() => run(request, gone.signal)).finally(() => {
        answered = true;
      });
      queue = next.catch(() => undefined);
      void next.then(answer);
    });
  });
  server.on('error', unusable);
  // Its owner's alone: a command forwarded over it may carry a secret (a webhook's), and another user on the machine
  // must not be able to send one. Made so before any client can connect, as the umask may leave it open to a group.
  server.listen(socketPath, () => {
    try {
      chmodSync(socketPath, 0o600);
    } catch (err) {
      unusable(err);
    }
  });
  return {
    close: () =>
      new Promise((resolve) => {
        // Only a socket this service listened on is its to remove.
        const ours = server.listening;
        server.close(() => resolve());
        // A client still connected (idle, or waiting for a command cut short) would hold the close, and the stop.
        for (const socket of sockets) socket.destroy();
        if (ours && existsSync(socketPath)) rmSync(socketPath, { force: true });
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

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap((c) => allCommands(c))];
}

/** Options of the forwarded commands that take a value (the word after them is not a positional argument). */
const VALUE_OPTIONS = new Set(['--batch', '--pdf', '--out', '--client', '--from', '--to', '--currency', '--account', '--limit', '--source', '--db']);
/** Options whose value is a path. */
const PATH_OPTIONS = new Set(['--pdf', '--out']);

/**
 * The command's file arguments made absolute, since the service runs in
 * another folder: the value of --pdf and --out (as `--pdf x` or `--pdf=x`),
 * and the file of `ingest file` and `report verify`, the first word after
 * them that is neither an option nor an option's value.
 */
function absolutePaths(argv: readonly string[]): string[] {
  const out = [...argv];
  const fileOf = (argv[0] === 'ingest' && argv[1] === 'file') || (argv[0] === 'report' && argv[1] === 'verify') ? 2 : -1;
  let positionalDone = fileOf < 0;
  for (let i = 0; i < out.length; i++) {
    const arg = out[i] as string;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      if (PATH_OPTIONS.has(arg.slice(0, eq))) out[i] = `${arg.slice(0, eq + 1)}${path.resolve(arg.slice(eq + 1))}`;
    } else if (VALUE_OPTIONS.has(arg) && i + 1 < out.length) {
      if (PATH_OPTIONS.has(arg)) out[i + 1] = path.resolve(out[i + 1] as string);
      i++;
    } else if (!positionalDone && i >= fileOf && !(arg.startsWith('-') && arg !== '-')) {
      positionalDone = true;
      if (arg !== '-') out[i] = path.resolve(arg);
    }
  }
  return out;
}

/** Why a command cannot be handed to the service, when it cannot: standard input is the caller's, not the service's. */
function notForwardable(argv: readonly string[]): string | undefined {
  if (argv[0] !== 'ingest' || argv[1] !== 'file') return undefined;
  if (argv.slice(2).includes('-')) {
    return 'afford ingest file -: standard input cannot be handed to the running afford service; save it to a file and give its path';
  }
  // A stream of the caller's (/dev/stdin, /dev/fd/N, a pipe) names something else, or nothing, in the service.
  const file = absolutePaths(argv).slice(2).find((arg, i, rest) => !arg.startsWith('-') && !VALUE_OPTIONS.has(rest[i - 1] ?? ''));
  if (file !== undefined && (file.startsWith('/dev/') || file.startsWith('/proc/') || !isRegularFile(file))) {
    return `afford ingest file: ${file} is not a regular file, which the running afford service cannot read as the caller's; save it to a file and give its path`;
  }
  return undefined;
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    // Missing: the service says so, as for any file.
    return true;
  }
}

/**
 * Why the socket at `socketPath` is not to be trusted with a command, when
 * it is not: it must be a socket owned by this user or by the store's owner
 * (the user the service runs as). Its path in the temporary folder is known
 * to every user, so another could hold the store open and listen there, and
 * take what the command carries (a webhook's secret and headers) and answer
 * what it likes.
 */
export function untrustedSocket(socketPath: string, dbPath: string): string | undefined {
  let socket: ReturnType<typeof lstatSync>;
  try {
    socket = lstatSync(socketPath);
  } catch {
    // Not there: the connection fails, and says so.
    return undefined;
  }
  const trusted = new Set<number>();
  if (process.getuid) trusted.add(process.getuid());
  try {
    trusted.add(statSync(dbPath).uid);
  } catch {
    // The store's owner is not known: this user's socket alone is trusted.
  }
  if (socket.isSocket() && trusted.has(socket.uid)) return undefined;
  return `afford: ${socketPath} is not a socket of this user's or of the store's owner (${socket.isSocket() ? `it belongs to user ${socket.uid}` : 'it is no socket'}): the command is not handed to it`;
}

export function forwardToService(dbPath: string, argv: readonly string[]): Promise<AdminResponse> {
  const socketPath = adminSocketPath(dbPath);
  const refused = notForwardable(argv);
  if (refused) return Promise.resolve({ output: '', error: refused, exitCode: 2 });
  const untrusted = untrustedSocket(socketPath, dbPath);
  if (untrusted) return Promise.resolve({ output: '', error: untrusted, exitCode: 1 });
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let body = '';
    socket.on('connect', () => socket.end(JSON.stringify({ argv: absolutePaths(argv) } satisfies AdminRequest)));
    socket.on('data', (d) => (body += d.toString()));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(body) as AdminResponse);
      } catch {
        reject(affordError('CLI_FAILED', 'afford: the afford service closed the connection without an answer'));
      }
    });
    socket.on('error', (err) =>
      reject(affordError('CLI_FAILED', `afford: ${dbPath} is in use by another process, and no afford service answers on ${socketPath}: ${err.message}`)),
    );
  });
}
