import type { Rng } from '../../src/generate/prng.js';

/** One generated request: sent with fetch when `raw` is absent, else as these bytes over a socket. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  raw?: string;
}

export interface OperationDoc {
  method: string;
  path: string;
  operationId: string;
  params: Array<{ name: string; in: string; schema?: { enum?: unknown[]; type?: string } }>;
  bodyType?: string;
  bodyFields: string[];
}

/** The credentials that let a request reach the handlers. */
export interface FuzzAuth {
  token: string;
  refreshToken: string;
  clientId: string;
  customerId: string;
  secretCustomerId: string;
  customerSecret: string;
}

const HOSTILE = [
  '', ' ', 'a'.repeat(201), 'b'.repeat(5000), '\u0000', 'x\u0000y', '😀'.repeat(60), 'ß\u202eevil', '\uFFFF\uD800',
  "' OR 1=1 --", '"; DROP TABLE transactions; --', "1'; SELECT * FROM api_signing_keys; --", '../../etc/passwd', '%', '%zz', '%E0%A4%A',
  '{}', '[]', 'null', 'true', '-1', '0', '1e309', '99999999999999999999', 'NaN', '-0.001', '2024-13-01', '2024-02-30', '0000-01',
  '9999-12', '2024-01-01T25:00:00Z', '<script>alert(1)</script>', '\\', ',,,', 'GBP,EUR', 'XYZ', 'gbp', '__proto__', 'constructor', '\r\nX-Evil: 1',
];

/** Values a parameter of that name accepts, so that some requests get past validation into the handler. */
const PLAUSIBLE: Record<string, string[]> = {
  month_from: ['2024-01', '2023-12'],
  month_to: ['2024-03', '2024-12'],
  date_from: ['2024-01-01', '2024-01-01T00:00:00Z'],
  date_to: ['2024-03-31', '2024-03-31T23:59:59Z'],
  from: ['2024-01', '2024-01-01'],
  to: ['2024-03', '2024-03-31'],
  updated_after: ['2024-01-01T00:00:00Z'],
  group_by: ['bucket_l1', 'bucket_l1,bucket_l2,month', 'month'],
  currency: ['GBP', 'EUR', 'JPY'],
  page_size: ['1', '200', '201'],
  page_token: ['eyJ0IjoiMjAyNCJ9', 'abc'],
  bucket_id: ['core-dashboard', 'nope'],
  account_id: ['acc-1', 'acc-2'],
  task_id: ['00000000-0000-0000-0000-000000000000'],
  application_id: ['app-1'],
  category: ['food_and_drink', 'bills_and_services'],
  format: ['flat', 'map'],
  model: ['uk-v2'],
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Percent-encoding of any string, lone surrogates included (sent as U+FFFD). */
function enc(s: string): string {
  return encodeURIComponent(s.replace(LONE_SURROGATE, '\uFFFD'));
}

export function hostileString(rng: Rng): string {
  return rng.chance(0.15) ? rng.hex(rng.int(1, 400)) : rng.pick(HOSTILE);
}

function paramValue(rng: Rng, param: OperationDoc['params'][number]): string {
  const plausible = [...(PLAUSIBLE[param.name] ?? []), ...(param.schema?.enum ?? []).map(String)];
  return plausible.length > 0 && rng.chance(0.6) ? rng.pick(plausible) : hostileString(rng);
}

/** A JSON value of any shape: wrong types, huge strings, deep nesting. */
function hostileJson(rng: Rng, depth = 0): unknown {
  const kind = rng.int(0, depth > 3 ? 4 : 7);
  if (kind === 0) return hostileString(rng);
  if (kind === 1) return rng.pick([0, -1, 1e308, 2 ** 53 + 1, 0.1, -0]);
  if (kind === 2) return rng.pick([null, true, false]);
  if (kind === 3) return 'z'.repeat(rng.pick([10, 1000, 100_000]));
  if (kind === 4) return {};
  if (kind === 5) return Array.from({ length: rng.int(0, 4) }, () => hostileJson(rng, depth + 1));
  if (kind === 6) return Object.fromEntries(Array.from({ length: rng.int(1, 4) }, () => [hostileString(rng).slice(0, 50), hostileJson(rng, depth + 1)]));
  let nested: unknown = 1;
  for (let i = 0; i < rng.pick([50, 1000, 5000]); i++) nested = rng.chance(0.5) ? [nested] : { a: nested };
  return nested;
}

function jsonBody(rng: Rng, op: OperationDoc): string {
  const roll = rng.int(0, 9);
  if (roll === 0) return rng.pick(['{', '{"a":}', '[1,2', '{"a":1,}', '\u0000', 'nul', '"\\ud800"', '{"a":"\\u0000"}', ' ']);
  if (roll === 1) return JSON.stringify(hostileJson(rng));
  if (roll === 2) return JSON.stringify(Array.from({ length: rng.int(1, 3) }, () => ({ customer_id: hostileString(rng), transactions: [hostileJson(rng)] })));
  // An object of the operation's own fields, some given hostile values, some left out.
  const fields = op.bodyFields.filter(() => rng.chance(0.8));
  const body = Object.fromEntries(fields.map((f) => [f, rng.chance(0.5) ? hostileString(rng) : hostileJson(rng)]));
  if (rng.chance(0.3)) body[hostileString(rng).slice(0, 30)] = hostileJson(rng);
  return JSON.stringify(op.bodyFields.includes('customer_id') || op.path.includes('ingest') ? [body] : body);
}

function formBody(rng: Rng, auth: FuzzAuth): string {
  const pairs = [
    `grant_type=${enc(rng.pick(['client_credentials', 'refresh_token', 'password', '', hostileString(rng)]))}`,
    `refresh_token=${enc(rng.pick([auth.refreshToken, auth.token, hostileString(rng)]))}`,
  ].filter(() => rng.chance(0.8));
  if (rng.chance(0.2)) pairs.push(pairs[0] ?? 'grant_type=x');
  if (rng.chance(0.1)) pairs.push('%zz=%E0');
  return pairs.join('&');
}

function headersFor(rng: Rng, auth: FuzzAuth): Record<string, string> {
  const secretCustomer = rng.chance(0.2);
  const headers: Record<string, string> = {
    authorization: `Bearer ${auth.token}`,
    'x-client-id': auth.clientId,
    'x-customer-id': secretCustomer ? auth.secretCustomerId : auth.customerId,
  };
  if (secretCustomer) headers['x-customer-secret'] = auth.customerSecret;
  if (rng.chance(0.75)) return headers;
  const roll = rng.int(0, 7);
  if (roll === 0) delete headers[rng.pick(['authorization', 'x-client-id', 'x-customer-id'])];
  if (roll === 1) headers['authorization'] = rng.pick(['Bearer x', `Bearer ${'a'.repeat(5000)}`, 'Basic Og==', `Bearer ${auth.refreshToken}`, 'Bearer', '']);
  if (roll === 2) headers['x-customer-id'] = enc(hostileString(rng));
  if (roll === 3) headers['x-client-id'] = enc(hostileString(rng));
  if (roll === 4) headers['x-customer-secret'] = enc(hostileString(rng));
  if (roll === 5) headers['x-customer-id'] = 'z'.repeat(rng.pick([201, 4000]));
  if (roll === 6) headers['accept'] = 'application/xml';
  return headers;
}

/** The request path: path parameters filled in, query parameters plausible, hostile, repeated or unknown. */
function pathFor(rng: Rng, op: OperationDoc): string {
  let path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = paramValue(rng, { name, in: 'path' });
    return value === '' ? 'x' : enc(value);
  });
  const query: string[] = [];
  for (const p of op.params.filter((x) => x.in === 'query')) {
    if (!rng.chance(0.6)) continue;
    const pair = `${enc(p.name)}=${enc(paramValue(rng, p))}`;
    query.push(pair);
    if (rng.chance(0.1)) query.push(pair);
  }
  if (rng.chance(0.2)) query.push(`${enc(hostileString(rng).slice(0, 40))}=${enc(hostileString(rng))}`);
  if (rng.chance(0.05)) query.push('a=%zz&b=%E0%A4%A');
  if (query.length) path += `?${query.join('&')}`;
  return path;
}

export function generateRequest(rng: Rng, op: OperationDoc, auth: FuzzAuth): FuzzRequest {
  const headers = headersFor(rng, auth);
  const path = pathFor(rng, op);
  let body: string | undefined;
  if (op.bodyType === 'application/x-www-form-urlencoded') {
    headers['content-type'] = rng.chance(0.85) ? op.bodyType : rng.pick(['application/json', 'text/plain', 'application/xml']);
    body = headers['content-type'] === 'application/json' ? jsonBody(rng, op) : formBody(rng, auth);
  } else if (op.bodyType) {
    headers['content-type'] = rng.chance(0.85) ? 'application/json' : rng.pick(['application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream', 'application/json; charset=utf-16']);
    body = rng.chance(0.05) ? '' : jsonBody(rng, op);
  } else if (rng.chance(0.1)) {
    headers['content-type'] = 'application/json';
    body = jsonBody(rng, op);
  }
  const req: FuzzRequest = { method: op.method, path, headers, body };
  // Some requests go as raw bytes: repeated headers, raw unicode and NUL bytes, which fetch will not send.
  // fetch sends no body with GET, so those go raw too.
  if (rng.chance(0.12) || (body !== undefined && op.method === 'GET')) req.raw = rawText(rng, req);
  return req;
}

function rawText(rng: Rng, req: FuzzRequest): string {
  const lines = [`${req.method} ${rng.chance(0.3) ? req.path.replace(/%[0-9A-F]{2}/g, rng.pick(['\u0000', 'é', ' ', '%'])) : req.path} HTTP/1.1`, 'Host: localhost', 'Connection: close'];
  for (const [name, value] of Object.entries(req.headers)) {
    lines.push(`${name}: ${value}`);
    if (rng.chance(0.15)) lines.push(`${name}: ${rng.chance(0.5) ? value : hostileString(rng).replace(/[\r\n]/g, '')}`);
  }
  if (rng.chance(0.2)) lines.push(`X-Unicode: ${'é😀'.repeat(10)}`);
  const body = req.body ?? '';
  if (body !== '' || rng.chance(0.5)) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
