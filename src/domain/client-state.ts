import { z } from 'zod';
import { bucketDefinitionBodySchema } from './buckets.js';

/**
 * Client-level state (API clients, bucket definitions, webhook
 * subscriptions) as changes that every shard applies in the same order. A
 * change holds the whole record, or null when the record is gone, so that a
 * compacted topic, which keeps only the last message of each key, still
 * rebuilds every record. Instants are ISO strings, fixed by the writer, so
 * every shard stores the same values.
 */

// An instant as the writer fixes it (toISOString): anything else would fail where it is stored, on every shard.
const instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/, 'must be an ISO 8601 instant in UTC').refine((s) => !Number.isNaN(Date.parse(s)) && new Date(s).toISOString().slice(0, 19) === s.slice(0, 19), 'must be a real instant');

/** More rotations than any client makes: each is a stored row (put-api-client.sql). */
export const MAX_TOKEN_GENERATION = 100_000;

export const apiClientStateSchema = z.object({
  client_id: z.string().min(1),
  name: z.string(),
  secret_hash: z.string().min(1),
  /** How many times the secret was rotated: tokens of an earlier generation are refused. */
  token_generation: z.number().int().min(0).max(MAX_TOKEN_GENERATION),
  created_at: instant,
  updated_at: instant,
});

export const bucketDefinitionStateSchema = z.object({
  bucket_id: z.string().min(1),
  client_id: z.string().min(1),
  body: bucketDefinitionBodySchema,
  created_at: instant,
  updated_at: instant,
});

export const webhookSubscriptionStateSchema = z.object({
  subscription_id: z.string().min(1),
  client_id: z.string().min(1),
  url: z.string().min(1),
  events: z.array(z.string()),
  headers: z.record(z.string(), z.string()),
  secret: z.string().nullable(),
  active: z.boolean(),
  created_at: instant,
  updated_at: instant,
});

export type ApiClientState = z.infer<typeof apiClientStateSchema>;
export type BucketDefinitionState = z.infer<typeof bucketDefinitionStateSchema>;
export type WebhookSubscriptionState = z.infer<typeof webhookSubscriptionStateSchema>;

export type ClientStateChange =
  | { kind: 'api-client'; id: string; value: ApiClientState | null }
  | { kind: 'bucket-definition'; id: string; value: BucketDefinitionState | null }
  | { kind: 'webhook-subscription'; id: string; value: WebhookSubscriptionState | null };

const SCHEMAS = {
  'api-client': apiClientStateSchema,
  'bucket-definition': bucketDefinitionStateSchema,
  'webhook-subscription': webhookSubscriptionStateSchema,
} as const;

type Kind = keyof typeof SCHEMAS;
const isKind = (text: string): text is Kind => Object.hasOwn(SCHEMAS, text);

/** The message key: `<kind>/<id>`, so that compaction keeps the last change of each record. */
export const clientStateKey = (change: Pick<ClientStateChange, 'kind' | 'id'>): string => `${change.kind}/${change.id}`;

/** A message back into a change; a reason (string) when it is not one. */
export function parseClientStateMessage(key: string | null, value: string | null): ClientStateChange | string {
  const slash = key?.indexOf('/') ?? -1;
  const kind = key && slash > 0 ? key.slice(0, slash) : '';
  const id = key && slash > 0 ? key.slice(slash + 1) : '';
  if (!isKind(kind) || id === '') return `key ${JSON.stringify(key)} is not <kind>/<id>`;
  if (value === null) return { kind, id, value: null } as ClientStateChange;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return 'value is not JSON';
  }
  const parsed = SCHEMAS[kind].safeParse(json);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  return { kind, id, value: parsed.data } as ClientStateChange;
}

/** The last change of each record, in the order of those last changes: what a batch must apply. */
export function lastChangeOfEach(changes: readonly ClientStateChange[]): ClientStateChange[] {
  const last = new Map<string, ClientStateChange>();
  for (const change of changes) {
    const key = clientStateKey(change);
    last.delete(key);
    last.set(key, change);
  }
  return [...last.values()];
}
