import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import route from '../../deploy/front/route.js';
import { produceLines } from '../../src/ingest/kafka-produce.js';
import { GENERIC_503, validationBody } from '../helpers/api.js';
import { startFront, type Front } from '../helpers/front.js';
import { endOffsets, generated, TOPICS } from '../helpers/kafka-data.js';
import { FOREIGN_CUSTOMER_REASON } from '../../src/ingest/pipeline.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { CLIENT_STATE_TOPIC, ServeNode } from '../helpers/shards.js';
import { transactionData } from '../helpers/webhooks.js';

/**
 * Two shards behind the nginx front, against one single node fed the same
 * events: every call through the front must answer what the single node
 * answers, whole responses compared.
 */

const PARTITIONS = 4;
const CLIENT = 'client-1';
const kafka = useKafkaFixture('afford-shards-front-', { [CLIENT_STATE_TOPIC]: 1 });

const { lines } = generated({ customers: 16, months: 3, seed: 41, faults: true, endMonth: '2024-06', clients: 1 });
/** One customer deletion per shard, late in the stream, for the webhook that announces it. */
const deletions = ['cust-000003', 'cust-000004'].map((customer, i) =>
  JSON.stringify({ event_id: `del-${i}`, type: 'customer.deleted', occurred_at: '2024-07-01T00:00:00Z', client_id: CLIENT, customer_id: customer, data: {} }),
);
const half = Math.floor(lines.length / 2);
const firstHalf = lines.slice(0, half);
const secondHalf = [...lines.slice(half), ...deletions];

/** The events that are JSON objects (the faults include lines that are not). */
const events = lines.flatMap((line) => {
  try {
    const parsed: unknown = JSON.parse(line);
    return parsed && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : [];
  } catch {
    return [];
  }
});

interface Customer {
  id: string;
  secret?: string;
}

/** Every customer of the client with the secret of its first event (hosted customers have none). */
const customers: Customer[] = (() => {
  const seen = new Map<string, Customer>();
  for (const e of events) {
    if (typeof e.customer_id !== 'string' || e.client_id !== CLIENT || seen.has(e.customer_id)) continue;
    seen.set(e.customer_id, { id: e.customer_id, secret: typeof e.customer_secret === 'string' ? e.customer_secret : undefined });
  }
  return [...seen.values()].filter((c) => !['cust-000003', 'cust-000004'].includes(c.id));
})();
const applications = [
  ...new Set(
    events
      .filter((e) => e.type === 'application.upserted' && e.client_id === CLIENT)
      .map((e) => (e.data as { application_id?: unknown } | undefined)?.application_id)
      .filter((id): id is string => typeof id === 'string'),
  ),
];

const HOUSING = {
  name: 'Housing',
  categorisation_model: 'uk-v2',
  buckets: [
    {
      bucket_l1: 'housing',
      criteria: [
        { bucket_l2: 'rent', category_l1: 'mortgage_and_rent', category_l2: 'rent' },
        { bucket_l2: 'mortgage', category_l1: 'mortgage_and_rent', category_l2: 'mortgage' },
      ],
    },
    { bucket_l1: 'food', criteria: [{ bucket_l2: 'groceries', category_l1: 'food_and_drink', category_l2: 'groceries' }] },
  ],
};
const TRAVEL = {
  name: 'Travel',
  categorisation_model: 'uk-v2',
  buckets: [{ bucket_l1: 'travel', criteria: [{ bucket_l2: 'fuel', category_l1: 'transport', category_l2: 'fuel' }] }],
};

/** One side of the comparison: the front of the shards, or the single node. */
interface Side {
  name: string;
  url: string;
  node: ServeNode;
  token: string;
  /** Bucket ids this side generated, in creation order: the same position is the same definition on both sides. */
  buckets: string[];
  receiver: Receiver;
}

interface Answer {
  status: number;
  body: unknown;
}

async function call(side: Side, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${side.token}`, 'x-client-id': CLIENT, ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${side.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

const customerHeaders = (c: Customer): Record<string, string> => ({ 'x-customer-id': c.id, ...(c.secret ? { 'x-customer-secret': c.secret } : {}) });

/** What legitimately differs between two deployments: generated ids, tokens and the clock at which things were written. */
function normalise(value: unknown, side: Side): unknown {
  if (typeof value === 'string') {
    let text = value;
    side.buckets.forEach((id, i) => (text = text.split(id).join(`<bucket-${i}>`)));
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => normalise(v, side));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, ['access_token', 'refresh_token', 'created_at', 'updated_at', 'generated_at', 'task_id'].includes(k) ? '<varies>' : normalise(v, side)]),
    );
  }
  return value;
}

async function createToken(side: Omit<Side, 'token'>, secret: string): Promise<string> {
  const res = await fetch(`${side.url}/v1/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT}:${secret}`).toString('base64')}`,
      'x-client-id': CLIENT,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

/** The calls compared, each as [label, method, path, headers, body]; `with bucket i` stands for this side's id. */
function readCalls(bucketCount: number): Array<[string, string, (side: Side) => string, Record<string, string>]> {
  const months = 'month_from=2024-04&month_to=2024-06';
  const calls: Array<[string, string, (side: Side) => string, Record<string, string>]> = [
    ['bucket list', 'GET', () => '/aggregations/v2/buckets', {}],
    ['categories', 'GET', () => '/resources/v2/categories?format=map&label=essential', {}],
    ['models', 'GET', () => '/resources/v2/categories/models', {}],
    ['openapi', 'GET', () => '/openapi.json', {}],
    ['unknown bucket', 'GET', () => '/aggregations/v2/buckets/no-such-bucket', {}],
    ['unknown route', 'GET', () => '/no/such/route', {}],
  ];
  for (let i = 0; i < bucketCount; i++) {
    calls.push([`bucket ${i}`, 'GET', (s) => `/aggregations/v2/buckets/${s.buckets[i]}?bucket_lookup&category_lookup&unbucketed_categories`, {}]);
  }
  for (const application of applications) calls.push([`application ${application}`, 'GET', () => `/core/v1/customer-applications/${application}`, {}]);
  for (const c of customers) {
    const h = customerHeaders(c);
    calls.push(
      [`${c.id} core totals`, 'GET', () => `/aggregations/v2/buckets/core-dashboard/totals?group_by=bucket_l1,month&${months}`, h],
      [`${c.id} transactions`, 'GET', () => '/financial/v2/transactions?page_size=7&date_from=2024-01-01&date_to=2024-06-30', h],
      [`${c.id} accounts`, 'GET', () => '/financial/v2/accounts', h],
      [`${c.id} category totals`, 'GET', () => '/aggregations/v2/totals/categories?from=2024-04&to=2024-06&include_l2=true', h],
      [`${c.id} report`, 'GET', () => `/v1/affordability/report?${months}`, h],
      [`${c.id} unknown account`, 'GET', () => `/v1/affordability/report?${months}&account_id=nope`, h],
    );
    for (let i = 0; i < bucketCount; i++) {
      calls.push(
        [`${c.id} totals of bucket ${i}`, 'GET', (s) => `/aggregations/v2/buckets/${s.buckets[i]}/totals?group_by=bucket_l1,bucket_l2&${months}`, h],
        [`${c.id} transactions of bucket ${i}`, 'GET', (s) => `/financial/v2/transactions?bucket_id=${s.buckets[i]}&date_from=2024-04-01&date_to=2024-06-30`, h],
      );
    }
  }
  calls.push(['a deleted customer', 'GET', () => '/financial/v2/accounts', { 'x-customer-id': 'cust-000003' }]);
  return calls;
}

/** The path of the first value that differs, with both values; undefined when equal. */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return a === b ? undefined : `${at}: ${JSON.stringify(a)?.slice(0, 200)} <> ${JSON.stringify(b)?.slice(0, 200)}`;
}

/** Every read through the front equals the single node's, after normalising; also follows each first transaction page's token. */
async function expectSameAnswers(front: Side, single: Side, bucketCount: number): Promise<void> {
  const differences: string[] = [];
  for (const [label, method, path, headers] of readCalls(bucketCount)) {
    const [a, b] = await Promise.all([call(front, method, path(front), headers), call(single, method, path(single), headers)]);
    const where = firstDifference(normalise(a, front), normalise(b, single));
    if (where) differences.push(`${label}: ${where}`);
    const next = (a.body as { metadata?: { next_page_token?: string } } | undefined)?.metadata?.next_page_token;
    if (label.endsWith(' transactions') && next) {
      const more = `${path(front)}&page_token=${encodeURIComponent(next)}`;
      const [c, d] = await Promise.all([call(front, method, more, headers), call(single, method, more, headers)]);
      if (JSON.stringify(c) !== JSON.stringify(d)) differences.push(`${label}, page 2`);
    }
  }
  expect(differences).toEqual([]);
}

async function waitForIngest(nodes: Array<{ node: ServeNode; shard?: number }>): Promise<void> {
  const ends = await endOffsets(kafka.broker.bootstrap, TOPICS);
  await Promise.all(
    nodes.map(({ node, shard }) =>
      node.worker.waitForEnds(new Map([...ends].filter(([k]) => shard === undefined || Number(k.split('#')[1]) % 2 === shard))),
    ),
  );
}

describe('two shards behind the nginx front', () => {
  let shards: ServeNode[] = [];
  let front: Front;
  let viaFront: Side;
  let single: Side;

  beforeAll(async () => {
    const brokers = kafka.broker.bootstrap;
    const started = await Promise.all([
      ServeNode.start({ dir: kafka.dir, name: 'shard-0', brokers, groupId: 'shards', shard: '0/2', clientStateTopic: CLIENT_STATE_TOPIC }),
      ServeNode.start({ dir: kafka.dir, name: 'shard-1', brokers, groupId: 'shards', shard: '1/2', clientStateTopic: CLIENT_STATE_TOPIC }),
      ServeNode.start({ dir: kafka.dir, name: 'single', brokers, groupId: 'single', shard: '0/1' }),
    ]);
    shards = started.slice(0, 2);
    const singleNode = started[2] as ServeNode;
    front = await startFront(kafka.dir, shards.map((s) => s.address), PARTITIONS);

    // The API client is created on shard 1 only (forwarded to it over its admin socket): the topic takes it to shard 0.
    const created = await (shards[1] as ServeNode).cli(['clients', 'create', '--id', CLIENT, '--name', 'Lender', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const singleCreated = await singleNode.cli(['clients', 'create', '--id', CLIENT, '--name', 'Lender', '--json']);
    expect(singleCreated.code, singleCreated.stderr).toBe(0);
    const [frontReceiver, singleReceiver] = await Promise.all([startReceiver(), startReceiver()]);
    // Subscriptions too are created on one shard and fire from the shard that owns each customer.
    for (const [node, receiver] of [[shards[0] as ServeNode, frontReceiver], [singleNode, singleReceiver]] as const) {
      const added = await node.cli(['webhooks', 'add', '--client', CLIENT, '--url', receiver.url, '--events', 'customers.deleted']);
      expect(added.code, added.stderr).toBe(0);
    }
    const frontSide = { name: 'front', url: front.url, node: shards[0] as ServeNode, buckets: [], receiver: frontReceiver };
    const singleSide = { name: 'single', url: singleNode.url, node: singleNode, buckets: [], receiver: singleReceiver };
    viaFront = { ...frontSide, token: await createToken(frontSide, (JSON.parse(created.stdout) as { client_secret: string }).client_secret) };
    single = { ...singleSide, token: await createToken(singleSide, (JSON.parse(singleCreated.stdout) as { client_secret: string }).client_secret) };

    await produceLines(kafka.producer(), firstHalf, { topics: TOPICS });
    await waitForIngest([{ node: shards[0] as ServeNode, shard: 0 }, { node: shards[1] as ServeNode, shard: 1 }, { node: singleNode }]);
  }, 80_000);

  afterAll(async () => {
    for (const node of [...shards, single?.node]) {
      node?.worker.kill('SIGTERM');
      await node?.worker.exited;
    }
    await front?.stop();
    await viaFront?.receiver.close();
    await single?.receiver.close();
  });

  it('spreads the customers over both shards, as the front routes them', () => {
    const owners = new Set(customers.map((c) => route.shardOf(c.id, PARTITIONS, 2)));
    expect(owners).toEqual(new Set([0, 1]));
  });

  it('answers every call as the single node does, and a definition created through the front is used by totals on both shards', async () => {
    for (const side of [viaFront, single]) {
      const created = await call(side, 'POST', '/aggregations/v2/buckets', {}, HOUSING);
      expect(created.status).toBe(201);
      side.buckets.push((created.body as { data: { bucket_id: string } }).data.bucket_id);
    }
    // Changed and changed back through the front: the writes go to any shard, and reach both.
    const changed = await Promise.all([viaFront, single].map((s) => call(s, 'PUT', `/aggregations/v2/buckets/${s.buckets[0]}`, {}, TRAVEL)));
    expect(normalise(changed[0], viaFront)).toEqual(normalise(changed[1], single));
    for (const side of [viaFront, single]) await call(side, 'PUT', `/aggregations/v2/buckets/${side.buckets[0]}`, {}, HOUSING);
    await expectSameAnswers(viaFront, single, 1);

    // The definition's totals are not zero on either shard: each shard applied it.
    for (const shard of [0, 1]) {
      const c = customers.find((x) => route.shardOf(x.id, PARTITIONS, 2) === shard) as Customer;
      const totals = await call(viaFront, 'GET', `/aggregations/v2/buckets/${viaFront.buckets[0]}/totals?group_by=bucket_l1&month_from=2024-04&month_to=2024-06`, customerHeaders(c));
      expect(totals.status).toBe(200);
      const counts = (totals.body as { data: Array<{ transaction_count: number }> }).data.map((g) => g.transaction_count);
      expect(counts.reduce((a, b) => a + b, 0), `customer ${c.id} on shard ${shard}`).toBeGreaterThan(0);
    }
  }, 60_000);

  it('takes a first-party ingestion through the front as the single node does, and refuses one mixing the shards', async () => {
    // New customers, one per shard, named in the body only, as a client of the reference API sends them.
    const ids = Array.from({ length: 40 }, (_, i) => `fp-${i}`);
    const ofShard = (k: number) => ids.find((id) => route.shardOf(id, PARTITIONS, 2) === k) as string;
    /** The answer with its task id replaced: the one thing two deployments generate differently. */
    const withoutTask = (answer: Answer, taskId: string) => JSON.parse(JSON.stringify(answer).split(taskId).join('<task>')) as unknown;
    for (const [k, key] of [[0, 'customer_id'], [1, 'customer_idempotent_identifier']] as const) {
      const customer = ofShard(k);
      const body = [{ [key]: customer, transactions: [transactionData(`${customer}-t1`, { amount: '10.00' }), transactionData(`${customer}-t2`, { amount: '2.50' })] }];
      const [a, b] = await Promise.all([call(viaFront, 'POST', '/v2/ingest/transactions', {}, body), call(single, 'POST', '/v2/ingest/transactions', {}, body)]);
      expect(a.status, JSON.stringify(a.body)).toBe(202);
      const [ta, tb] = [a, b].map((x) => (x.body as { data: { task_id: string } }).data.task_id) as [string, string];
      expect(withoutTask(a, ta)).toEqual(withoutTask(b, tb));
      // The status call names no customer: the front asks each shard until one has the task.
      const [sa, sb] = await Promise.all([call(viaFront, 'GET', `/ingestion/v3/tasks/${ta}`), call(single, 'GET', `/ingestion/v3/tasks/${tb}`)]);
      expect(sa.status).toBe(200);
      expect(withoutTask(sa, ta)).toEqual(withoutTask(sb, tb));
      const read = '/financial/v2/transactions?date_from=2024-01-01&date_to=2024-06-30';
      const [ra, rb] = await Promise.all([call(viaFront, 'GET', read, { 'x-customer-id': customer }), call(single, 'GET', read, { 'x-customer-id': customer })]);
      expect((ra.body as { data: unknown[] }).data).toHaveLength(2);
      expect(normalise(ra, viaFront)).toEqual(normalise(rb, single));
    }
    expect(await call(viaFront, 'GET', '/ingestion/v3/tasks/no-such-task')).toEqual(await call(single, 'GET', '/ingestion/v3/tasks/no-such-task'));

    // One request for a customer of each shard cannot be applied in one transaction: refused whole, naming the other shard's customer.
    const [first, other] = [ofShard(1), ofShard(0)];
    const mixed = [
      { customer_id: first, transactions: [transactionData(`${first}-mixed`)] },
      { customer_id: other, transactions: [transactionData(`${other}-mixed`)] },
    ];
    const refused = await call(viaFront, 'POST', '/v2/ingest/transactions', {}, mixed);
    expect(refused).toEqual({ status: 400, body: validationBody('v2_ingest_transactions_post', { '[1].customer_id': expect.stringContaining('another shard') }) });
    const after = await call(viaFront, 'GET', '/financial/v2/transactions?date_from=2024-01-01&date_to=2024-06-30', { 'x-customer-id': first });
    expect((after.body as { data: Array<{ transaction_id: string }> }).data.map((t) => t.transaction_id).sort()).toEqual([`${first}-t1`, `${first}-t2`]);
  }, 30_000);

  it("verifies a report PDF through the front on its customer's own shard, whichever shard the front asks first", async () => {
    for (const shard of [0, 1]) {
      const c = customers.find((x) => route.shardOf(x.id, PARTITIONS, 2) === shard) as Customer;
      const res = await fetch(`${front.url}/v1/affordability/report?month_from=2024-01&month_to=2024-06&format=pdf`, {
        headers: { authorization: `Bearer ${viaFront.token}`, 'x-client-id': CLIENT, ...customerHeaders(c) },
      });
      expect(res.status).toBe(200);
      const pdf = new Uint8Array(await res.arrayBuffer());
      // The front sends the call to either shard first: four times each, so that both orders come up.
      for (let i = 0; i < 4; i++) {
        const verified = await fetch(`${front.url}/v1/affordability/report/verify`, {
          method: 'POST',
          headers: { authorization: `Bearer ${viaFront.token}`, 'x-client-id': CLIENT, 'content-type': 'application/pdf', ...(c.secret ? { 'x-customer-secret': c.secret } : {}) },
          body: pdf,
        });
        const body = (await verified.json()) as { data?: { matches: boolean; signature: string; customer_exists: boolean } };
        expect({ shard, try: i, status: verified.status, ...body.data }).toMatchObject({ shard, try: i, status: 200, matches: true, signature: 'holds', customer_exists: true });
      }
    }
  }, 30_000);

  it('loses nothing when a shard is killed and restarted, and meanwhile answers 503 for its customers only', async () => {
    const down = shards[1] as ServeNode;
    down.worker.kill('SIGKILL');
    await down.worker.exited;
    const ofShard = (k: number) => customers.find((c) => route.shardOf(c.id, PARTITIONS, 2) === k) as Customer;
    const away = await call(viaFront, 'GET', '/financial/v2/accounts', customerHeaders(ofShard(1)));
    expect(away).toEqual({ status: 503, body: GENERIC_503 });
    const here = await call(viaFront, 'GET', '/financial/v2/accounts', customerHeaders(ofShard(0)));
    expect(here.status).toBe(200);

    // While it is away: the rest of the events, and a second definition written through the front (to shard 0).
    await produceLines(kafka.producer(), secondHalf, { topics: TOPICS });
    for (const side of [viaFront, single]) {
      const created = await call(side, 'POST', '/aggregations/v2/buckets', {}, TRAVEL);
      expect(created.status).toBe(201);
      side.buckets.push((created.body as { data: { bucket_id: string } }).data.bucket_id);
    }

    await down.restart();
    await waitForIngest([{ node: shards[0] as ServeNode, shard: 0 }, { node: down, shard: 1 }, { node: single.node }]);
    await expectSameAnswers(viaFront, single, 2);

    // Each customer deletion was announced once, by the shard that owns the customer, as on the single node.
    const announced = async (side: Side) =>
      (await side.receiver.waitFor(deletions.length)).map((r) => (JSON.parse(r.body.toString('utf8')) as { customer_id?: string }).customer_id).sort();
    expect(await announced(viaFront)).toEqual(await announced(single));
    expect(viaFront.receiver.requests).toHaveLength(deletions.length);
  }, 80_000);

  it('refuses, as a dead letter saying why, an event keyed by something else than its customer id, which lands on a shard that does not own the customer', async () => {
    // A customer of shard 1, and a key whose partition is shard 0's.
    const customer = Array.from({ length: 50 }, (_, i) => `miskeyed-${i}`).find((id) => route.shardOf(id, PARTITIONS, 2) === 1) as string;
    const key = Array.from({ length: 50 }, (_, i) => `key-${i}`).find((k) => route.shardOf(k, PARTITIONS, 2) === 0) as string;
    const event = { event_id: 'miskeyed-1', type: 'transaction.upserted', occurred_at: '2024-05-01T00:00:00Z', client_id: CLIENT, customer_id: customer, data: transactionData('miskeyed-tx') };
    await kafka.producer().send([{ topic: TOPICS[0], messages: [{ key, value: JSON.stringify(event) }] }]);
    await waitForIngest([{ node: shards[0] as ServeNode, shard: 0 }]);
    const letters = await (shards[0] as ServeNode).cli(['dead-letters', '--json']);
    expect(letters.code, letters.stderr).toBe(0);
    const found = (JSON.parse(letters.stdout) as Array<{ raw: string; reason: string }>).filter((l) => l.raw.includes('miskeyed-tx'));
    expect(found).toEqual([expect.objectContaining({ reason: FOREIGN_CUSTOMER_REASON })]);
  }, 30_000);
});
