import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The front of several shards: Debian's nginx with its JavaScript module,
 * run on a loopback port with deploy/front/nginx.conf, its addresses swapped
 * for the test's. A missing nginx fails loudly: the test never skips.
 */

// No vitest here: bench/shards.ts starts the front too.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NGINX = '/usr/sbin/nginx';
const JS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';
const FRONT_DIR = path.join(ROOT, 'deploy/front');
const INSTALL_HINT = 'run test/install-tools.sh (apt-get install nginx libnginx-mod-http-js)';

export interface Front {
  url: string;
  /** What nginx wrote to standard error. */
  log: () => string;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** deploy/front/nginx.conf with the test's shards, partition count, port and folder. */
export function frontConfig(shardAddresses: readonly string[], partitions: number, port: number): string {
  const conf = readFileSync(path.join(FRONT_DIR, 'nginx.conf'), 'utf8');
  const shardUpstreams = shardAddresses
    .map((address, k) => `    upstream afford_shard_${k} {\n        server ${address};\n        keepalive 16;\n    }\n`)
    .join('');
  const any = `    upstream afford_any {\n${shardAddresses.map((a) => `        server ${a} max_fails=0;\n`).join('')}        keepalive 16;\n    }\n`;
  const replaced = conf
    .replace(/js_path [^;]+;/, `js_path ${FRONT_DIR};`)
    .replace(/js_var \$afford_partitions \d+;/, `js_var $afford_partitions ${partitions};`)
    .replace(/js_var \$afford_shards \d+;/, `js_var $afford_shards ${shardAddresses.length};`)
    .replace(/( {4}upstream afford_[a-z0-9_]+ \{[^}]*\}\n)+(( {4}#[^\n]*\n)+ {4}upstream afford_any \{[^}]*\}\n)?/, shardUpstreams + any)
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`);
  if ((replaced.match(/upstream afford_\w+ \{/g) ?? []).length !== shardAddresses.length + 1) throw new Error('deploy/front/nginx.conf no longer has the upstream blocks the test replaces');
  return replaced;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts nginx in the foreground in `dir`; resolves once it accepts connections. */
export async function startFront(dir: string, shardAddresses: readonly string[], partitions: number): Promise<Front> {
  if (!existsSync(NGINX)) throw new Error(`the front needs nginx (${NGINX} is missing): ${INSTALL_HINT}`);
  if (!existsSync(JS_MODULE)) throw new Error(`the front needs nginx's JavaScript module (${JS_MODULE} is missing): ${INSTALL_HINT}`);
  const prefix = path.join(dir, 'front');
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const port = await freePort();
  const confPath = path.join(prefix, 'nginx.conf');
  writeFileSync(confPath, frontConfig(shardAddresses, partitions, port));
  const globals = `daemon off; pid ${path.join(prefix, 'nginx.pid')}; error_log stderr warn;`;
  const check = spawnSync(NGINX, ['-t', '-p', prefix, '-c', confPath, '-g', globals], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refuses the front's configuration:\n${check.stderr}`);
  const child = spawn(NGINX, ['-p', prefix, '-c', confPath, '-g', globals], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; !(await accepts(port)); i++) {
    if (child.exitCode !== null || i > 200) throw new Error(`nginx did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    stop: async () => {
      // SIGQUIT: nginx's graceful stop.
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
