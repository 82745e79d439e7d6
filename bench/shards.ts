/**
 * Two shards behind the nginx front against one node, on the test broker:
 *
 *   node --import tsx bench/shards.ts [--customers 300] [--months 6] [--partitions 8] [--requests 2000] [--concurrency 8]
 *
 * Ingest: the same backlog consumed by one node, then by two shards at once,
 * each rate taken from the first partition assignment to the last commit
 * (from the nodes' own log times), so the broker's join delay counts for
 * neither. Requests: the same transaction-list calls, for customers of both
 * shards, sent to the single node, to each customer's own shard directly,
 * and through the front; the rates and their ratios, then each process's
 * peak RSS.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import route from '../deploy/front/route.js';
import { generateEvents } from '../src/generate/index.js';
import { createProducer } from '../src/ingest/kafka-client.js';
import { produceLines } from '../src/ingest/kafka-produce.js';
import { createLogger } from '../src/logger.js';
import { startFront } from '../test/helpers/front.js';
import { CLIENT_STATE_TOPIC, ServeNode } from '../test/helpers/shards.js';
import { startMockBroker } from './mock-kafka-broker.js';

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '300' },
    months: { type: 'string', default: '6' },
    partitions: { type: 'string', default: '8' },
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
  },
});
const TOPICS = ['afford.transactions.v1', 'afford.accounts.v1', 'afford.customers.v1', 'afford.payments.v1'];
/** The single node reads a copy of its own, so that each run starts from a settled group. */
const ONE_TOPICS = TOPICS.map((t) => t.replace('afford.', 'afford.single.'));
const partitions = Number(args.partitions);
const out = (line: string): boolean => process.stdout.write(`${line}\n`);
const perSecond = (n: number, ms: number): number => Math.round(n / (ms / 1000));
const progress = (what: string): boolean => process.stderr.write(`[${new Date().toISOString()}] ${what}\n`);
const fmt = (n: number): string => n.toLocaleString('en-GB');

const dir = mkdtempSync(path.join(tmpdir(), 'afford-bench-shards-'));
const broker = await startMockBroker({ ...Object.fromEntries([...TOPICS, ...ONE_TOPICS].flatMap((t) => [[t, partitions], [`${t}.dlq`, 1]])), [CLIENT_STATE_TOPIC]: 1 });
const nodes: ServeNode[] = [];
/** A customer that is not hosted is read with the secret of its first event. */
let customerSecrets = new Map<string, string | undefined>();
// Long enough that a long first transaction on a busy machine does not cost a member its place.
const env = { AFFORD_KAFKA_SESSION_TIMEOUT_MS: '10000', AFFORD_KAFKA_BATCH_WAIT_MS: '100' };

function peakRssMiB(node: ServeNode): number {
  const status = readFileSync(`/proc/${node.worker.pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

async function token(url: string, node: ServeNode): Promise<string> {
  const created = await node.cli(['clients', 'create', '--id', 'client-1', '--name', 'Bench', '--json']);
  if (created.code !== 0) throw new Error(created.stderr);
  const secret = (JSON.parse(created.stdout) as { client_secret: string }).client_secret;
  const res = await fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`client-1:${secret}`).toString('base64')}`, 'x-client-id': 'client-1', 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

/** `count` transaction-list calls over the customers, `concurrency` at a time; requests per second. */
async function requests(target: (customer: string) => string, tokenValue: string, customers: readonly string[]): Promise<number> {
  const count = Number(args.requests);
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Number(args.concurrency) }, async () => {
      while (next < count) {
        const customer = customers[next++ % customers.length] as string;
        const res = await fetch(`${target(customer)}/financial/v2/transactions?page_size=20`, {
          headers: {
            authorization: `Bearer ${tokenValue}`,
            'x-client-id': 'client-1',
            'x-customer-id': customer,
            ...(customerSecrets.get(customer) ? { 'x-customer-secret': customerSecrets.get(customer) as string } : {}),
          },
        });
        const text = await res.text();
        if (res.status !== 200 && failed++ === 0) progress(`${res.status} from ${target(customer)}: ${text.slice(0, 200)}`);
      }
    }),
  );
  if (failed) throw new Error(`${failed} requests failed`);
  return perSecond(count, performance.now() - started);
}

/** Starts nodes one after the other (the test broker can fail a SyncGroup that two members start at the same moment), each once it has its partitions. */
async function startGroup(specs: Array<Parameters<typeof ServeNode.start>[0]>): Promise<ServeNode[]> {
  const started: ServeNode[] = [];
  for (const spec of specs) {
    const node = await ServeNode.start(spec);
    started.push(node);
    nodes.push(node);
  }
  for (const node of started) {
    await node.worker.waitFor('its partitions', () => {
      const last = node.worker.lines.filter((l) => l.msg === 'partitions assigned').at(-1);
      return Object.keys(last?.assignment ?? {}).length > 0;
    });
  }
  return started;
}

/** Produces the events once every node of the group holds its partitions; events per second from the first send to the last commit. */
async function ingest(group: ServeNode[], lines: readonly string[], topics: readonly string[]): Promise<{ rate: number; ms: number }> {
  const producer = createProducer({ brokers: [broker.bootstrap], clientId: 'bench', ssl: false }, createLogger('silent'));
  const from = Date.now();
  await produceLines(producer, lines, { topics });
  await producer.close();
  const total = () => group.reduce((sum, n) => sum + [...n.committed.values()].reduce((a, b) => a + b, 0n), 0n);
  // Polled: each worker's own waitFor looks again only when that worker logs.
  const deadline = Date.now() + 600_000;
  while (total() < BigInt(lines.length)) {
    if (Date.now() > deadline || group.some((n) => !n.worker.running)) throw new Error(`ingest stalled at ${total()} of ${lines.length} events`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const to = Math.max(...group.flatMap((n) => n.worker.lines.filter((l) => l.msg === 'Kafka batch committed').map((l) => Number(l.time))));
  return { rate: perSecond(lines.length, to - from), ms: to - from };
}

try {
  const lines = [...generateEvents({ customers: Number(args.customers), months: Number(args.months), seed: 7, faults: false, endMonth: '2024-06', clients: 1 })];
  const secrets = new Map<string, string | undefined>();
  for (const line of lines) {
    const e = JSON.parse(line) as { customer_id: string; customer_secret?: string };
    if (!secrets.has(e.customer_id)) secrets.set(e.customer_id, e.customer_secret);
  }
  customerSecrets = secrets;
  const customers = [...secrets.keys()];
  out(`${fmt(lines.length)} events of ${customers.length} customers on ${TOPICS.length} topics x ${partitions} partitions`);

  const brokers = broker.bootstrap;
  const [one] = await startGroup([{ dir, name: 'one', brokers, groupId: 'one', shard: '0/1', env: { ...env, AFFORD_KAFKA_TOPICS: ONE_TOPICS.join(',') } }]);
  if (!one) throw new Error('no node');
  progress('single node holds its partitions');
  const single = await ingest([one], lines, ONE_TOPICS);
  progress('single node ingested');
  const shards = await startGroup(
    [0, 1].map((k) => ({ dir, name: `shard-${k}`, brokers, groupId: 'two', shard: `${k}/2`, clientStateTopic: CLIENT_STATE_TOPIC, env })),
  );
  progress('shards hold their partitions');
  const two = await ingest(shards, lines, TOPICS);
  out(`ingest, 1 node: ${fmt(single.rate)} events/s (${single.ms} ms); 2 shards: ${fmt(two.rate)} events/s (${two.ms} ms); ratio ${(two.rate / single.rate).toFixed(2)}`);

  const front = await startFront(dir, shards.map((s) => s.address), partitions);
  try {
    const singleToken = await token(one.url, one);
    const shardToken = await token(front.url, shards[0] as ServeNode);
    const owner = (customer: string) => (shards[route.shardOf(customer, partitions, 2)] as ServeNode).url;
    // Warm-up: connections, caches and the JIT, for every target alike.
    await requests(() => one.url, singleToken, customers.slice(0, 20));
    await requests(owner, shardToken, customers.slice(0, 20));
    await requests(() => front.url, shardToken, customers.slice(0, 20));
    const baseline = await requests(() => one.url, singleToken, customers);
    const direct = await requests(owner, shardToken, customers);
    const viaFront = await requests(() => front.url, shardToken, customers);
    out(`requests (GET /financial/v2/transactions, ${args.concurrency} at a time): single node ${fmt(baseline)}/s; each customer's shard directly ${fmt(direct)}/s (${(direct / baseline).toFixed(2)}); through the front ${fmt(viaFront)}/s (${(viaFront / baseline).toFixed(2)} of single, ${(viaFront / direct).toFixed(2)} of direct)`);
  } finally {
    await front.stop();
  }
  out(`peak RSS: single node ${peakRssMiB(one)} MiB; shards ${shards.map(peakRssMiB).join(' and ')} MiB`);
} finally {
  if (process.env.BENCH_DUMP) for (const node of nodes) writeFileSync(path.join(process.env.BENCH_DUMP, `${node.options.name}.log`), node.worker.lines.map((l) => JSON.stringify(l)).join('\n'));
  for (const node of nodes) {
    node.worker.kill('SIGTERM');
    await node.worker.exited;
  }
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
}
