import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientsService } from '../../src/clients/clients.service.js';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { Rng } from '../../src/generate/prng.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { generateRequest, type FuzzAuth, type FuzzRequest, type OperationDoc } from '../helpers/fuzz-requests.js';
import { startLoggedService, type LoggedService } from '../helpers/logged-service.js';
import { rawRequest } from '../helpers/raw-http.js';
import { fixturePath } from '../helpers/store.js';

/** Requests per operation of /openapi.json; with about 20 operations, some 1,600 requests in all. */
const PER_OPERATION = 80;
const SEED = 20261123;

/** A stack frame, a framework or parser code, or an exception's name: nothing of the kind may leave. */
const LEAK = /\n\s+at |\bat [\w.<>]+ \(|FST_ERR|HPE_|TypeError|SyntaxError|RangeError|Error: |node_modules|\.ts:\d+/;

type JsonObject = Record<string, unknown>;

function operationsOf(doc: JsonObject): OperationDoc[] {
  const schemas = ((doc['components'] as JsonObject | undefined)?.['schemas'] ?? {}) as Record<string, JsonObject>;
  const fieldsOf = (ref: string | undefined): string[] => {
    let schema = ref ? schemas[ref.split('/').pop() ?? ''] : undefined;
    if (schema?.['type'] === 'array') schema = schema['items'] as JsonObject | undefined;
    return Object.keys((schema?.['properties'] ?? {}) as JsonObject);
  };
  const ops: OperationDoc[] = [];
  for (const [path, methods] of Object.entries(doc['paths'] as Record<string, Record<string, JsonObject>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = ((op['requestBody'] as JsonObject | undefined)?.['content'] ?? {}) as Record<string, { schema?: { $ref?: string } }>;
      const [bodyType, media] = Object.entries(content)[0] ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op['operationId']),
        params: (op['parameters'] ?? []) as OperationDoc['params'],
        bodyType,
        bodyFields: fieldsOf(media?.schema?.$ref),
      });
    }
  }
  return ops;
}

interface Outcome {
  status: number;
  body: string;
}

async function send(base: string, req: FuzzRequest): Promise<Outcome> {
  if (req.raw !== undefined) {
    const res = await rawRequest(base, req.raw);
    return { status: res.status, body: res.body };
  }
  const res = await fetch(`${base}${req.path}`, { method: req.method, headers: req.headers, body: req.body });
  return { status: res.status, body: await res.text() };
}

/** What is wrong with an answer, or undefined when it is as the interface says. */
function problemWith(out: Outcome): string | undefined {
  if (out.status === 0) return 'no HTTP answer';
  if (out.status >= 500) return `status ${out.status}`;
  if (LEAK.test(out.body)) return `leaks internals: ${out.body.slice(0, 200)}`;
  if (out.status < 400) return undefined;
  let body: JsonObject;
  try {
    body = JSON.parse(out.body) as JsonObject;
  } catch {
    return `4xx body is not JSON: ${out.body.slice(0, 200)}`;
  }
  const ok = ['operation_id', 'code_id', 'message'].every((k) => typeof body[k] === 'string' && body[k] !== '') && typeof body['errors'] === 'object' && body['errors'] !== null;
  return ok ? undefined : `4xx body is not the error body: ${out.body.slice(0, 200)}`;
}

describe('fuzzing every operation of /openapi.json', () => {
  let svc: LoggedService;
  let auth: FuzzAuth;
  let operations: OperationDoc[];

  beforeAll(async () => {
    svc = await startLoggedService('warn', { AFFORD_REFRESH_TIMEOUT_MS: '1000' });
    for (const f of ['hand-computed.ndjson', 'api-customers.ndjson']) await ingestFile(svc.service.pipeline, fixturePath(f), { batchRows: 1000 });
    const client = await new ClientsService(new ClientsRepository(svc.service.store)).create('fuzz', 'client-a');
    const res = await fetch(`${svc.base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-client-id': 'client-a', authorization: `Basic ${Buffer.from(`client-a:${client.client_secret}`).toString('base64')}` },
      body: 'grant_type=client_credentials',
    });
    const tokens = ((await res.json()) as { data: { access_token: string; refresh_token: string } }).data;
    auth = { token: tokens.access_token, refreshToken: tokens.refresh_token, clientId: 'client-a', customerId: 'cust-1', secretCustomerId: 'cust-2', customerSecret: 'cust-2-secret-0123456789' };
    operations = operationsOf((await (await fetch(`${svc.base}/openapi.json`)).json()) as JsonObject);
  });
  afterAll(async () => {
    await svc.stop();
    svc.cleanup();
  });

  it('never answers 5xx, never shows a stack, and answers every 4xx with the error body', async () => {
    expect(operations.length).toBeGreaterThan(10);
    const rng = new Rng(SEED);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    for (const op of operations) {
      for (let i = 0; i < PER_OPERATION; i++) {
        const req = generateRequest(rng, op, auth);
        const out = await send(svc.base, req);
        sent++;
        statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1);
        const problem = problemWith(out);
        if (problem) problems.push(`${op.operationId} ${req.method} ${req.path.slice(0, 120)}${req.raw !== undefined ? ' (raw)' : ''}: ${problem}`);
      }
    }
    process.stdout.write(`fuzz: ${sent} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`);
    expect(problems.slice(0, 20)).toEqual([]);
    // Handlers were reached, not only the validation in front of them.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(operations.length);
    // The service still answers afterwards.
    expect((await fetch(`${svc.base}/readyz`)).status).toBe(200);
  }, 120_000);
});
