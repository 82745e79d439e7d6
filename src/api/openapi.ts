import { z } from 'zod';
import type { RouteDoc } from './router.js';
import { clientErrorOut, serverErrorOut } from './schemas/common.js';
import { totalsGroupOut } from './schemas/bucket-totals.schemas.js';

type JsonObject = Record<string, unknown>;

const HEADERS = {
  client: { name: 'X-Client-ID', in: 'header', required: true, schema: { type: 'string' }, description: 'The client that the token was issued to' },
  customer: { name: 'X-Customer-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'A customer of the client; required unless X-Customer-Idempotent-Identifier names it' },
  idempotent: { name: 'X-Customer-Idempotent-Identifier', in: 'header', required: false, schema: { type: 'string' }, description: 'The same customer id, under the header name the reference API also accepts' },
  secret: { name: 'X-Customer-Secret', in: 'header', required: false, schema: { type: 'string' }, description: 'Required for customers that are not hosted' },
};

const ERROR_RESPONSES: Record<string, JsonObject> = {
  '400': { description: 'failed_validation: one entry in errors per offending field', content: { 'application/json': { schema: { $ref: '#/components/schemas/ClientError' } } } },
  '401': { description: 'Unauthorised request', content: { 'application/json': { schema: { $ref: '#/components/schemas/ClientError' } } } },
  '404': { description: 'Route or resource not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/ClientError' } } } },
  '405': { description: 'Method not allowed', content: { 'application/json': { schema: { $ref: '#/components/schemas/ClientError' } } } },
  '500': { description: 'An error occurred while processing your request', content: { 'application/json': { schema: { $ref: '#/components/schemas/ServerError' } } } },
  '503': { description: 'Service unavailable', content: { 'application/json': { schema: { $ref: '#/components/schemas/ServerError' } } } },
};

/** Drops the keys that make sense for a standalone JSON Schema document but not inside OpenAPI components. */
function component(schema: unknown): JsonObject {
  const rest: JsonObject = { ...(schema as JsonObject) };
  delete rest['$schema'];
  delete rest['$id'];
  return rest;
}

function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path'): JsonObject[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
  }));
}

/** The OpenAPI 3.1 document of every route registered through the Router, from their zod schemas. */
export function openApiDocument(docs: readonly RouteDoc[]): JsonObject {
  const responses = z.registry<{ id: string }>();
  const bodies = z.registry<{ id: string }>();
  responses.add(totalsGroupOut, { id: 'TotalsGroup' });
  responses.add(clientErrorOut, { id: 'ClientError' });
  responses.add(serverErrorOut, { id: 'ServerError' });
  for (const d of docs) {
    if (d.successStatus !== 204 && !responses.has(d.response)) responses.add(d.response, { id: `${d.operationId}_response` });
    if (d.body && !bodies.has(d.body)) bodies.add(d.body, { id: `${d.operationId}_body` });
    Object.values(d.bodies ?? {}).forEach((b, i) => {
      if (!bodies.has(b)) bodies.add(b, { id: `${d.operationId}_body_${i + 2}` });
    });
  }
  const uri = (id: string) => `#/components/schemas/${id}`;
  const out = z.toJSONSchema(responses, { uri, io: 'output', unrepresentable: 'any' }).schemas;
  const inp = z.toJSONSchema(bodies, { uri, io: 'input', unrepresentable: 'any' }).schemas;
  const schemas = Object.fromEntries([...Object.entries(out), ...Object.entries(inp)].map(([id, s]) => [id, component(s)]));

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const d of docs) {
    const path = d.url.replace(/:(\w+)/g, '{$1}');
    const headers = d.auth === 'none' ? [] : d.auth === 'client' ? [HEADERS.client] : [HEADERS.client, HEADERS.customer, HEADERS.idempotent, HEADERS.secret];
    const operation: JsonObject = {
      operationId: d.operationId,
      summary: d.summary,
      tags: [d.tag],
      parameters: [...parametersOf(d.params, 'path'), ...parametersOf(d.query, 'query'), ...headers],
      responses: {
        [String(d.successStatus)]:
          d.successStatus === 204
            ? { description: 'No content' }
            : { description: 'Success', content: { 'application/json': { schema: { $ref: uri(responses.get(d.response)?.id ?? '') } } } },
        ...ERROR_RESPONSES,
      },
      security: d.auth === 'none' ? [] : [{ bearerAuth: [] }],
    };
    if (d.body) {
      const ref = { $ref: uri(bodies.get(d.body)?.id ?? '') };
      const others = Object.entries(d.bodies ?? {}).map(([type, b]) => [type, { schema: { $ref: uri(bodies.get(b)?.id ?? '') } }]);
      operation['requestBody'] = { required: true, content: { [d.bodyContentType ?? 'application/json']: { schema: ref }, ...Object.fromEntries(others) } };
    }
    (paths[path] ??= {})[d.method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'afford: affordability aggregation API',
      version: '1.0.0',
      description: 'Bucket definitions and totals, the transactions behind every total, accounts, applications and categories.',
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        basicAuth: { type: 'http', scheme: 'basic' },
      },
    },
  };
}
