import { randomBytes } from 'node:crypto';
import { listValue } from '@duckdb/node-api';
import { z } from 'zod';
import { isoFromDb } from '../domain/timestamps.js';
import { type Columns } from '../db/rows.js';
import { queryFile } from '../db/script.js';
import { clientStateWriter } from '../db/client-state.js';
import type { Store } from '../db/store.js';
import { dbTime } from '../domain/timestamps.js';
import type { ValidSubscription } from './subscription-input.js';
import { affordError } from '../domain/errors.js';

/** A subscription as listed: the secret itself never leaves the store, only whether there is one. */
export interface Subscription {
  subscriptionId: string;
  clientId: string;
  url: string;
  events: string[];
  headers: Record<string, string>;
  signed: boolean;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

interface SubscriptionRow {
  subscription_id: string;
  client_id: string;
  url: string;
  events: string[];
  headers: string;
  signed: boolean;
  active: boolean;
  created_at: string;
  updated_at: string;
}

const SUBSCRIPTION_COLUMNS: Columns<SubscriptionRow> = {
  subscription_id: 'text', client_id: 'text', url: 'text', events: 'list', headers: 'text', signed: 'boolean', active: 'boolean',
  created_at: 'text', updated_at: 'text',
};

export const headersJson = z.record(z.string(), z.string());

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    subscriptionId: row.subscription_id,
    clientId: row.client_id,
    url: row.url,
    events: row.events,
    headers: headersJson.parse(JSON.parse(row.headers)),
    signed: row.signed,
    active: row.active,
    createdAt: isoFromDb(row.created_at) ?? '',
    updatedAt: isoFromDb(row.updated_at) ?? '',
  };
}

/** With several shards, a write goes to every shard as a client-state change (src/db/client-state.ts). */
export class SubscriptionsRepository {
  constructor(private readonly store: Store) {}

  /** Stores a validated subscription; it starts active. */
  async add(input: ValidSubscription): Promise<Subscription> {
    // Two active subscriptions of one client to one URL would send that URL every event twice, under two delivery ids.
    const same = (await this.list(input.clientId)).find((s) => s.active && s.url === input.url);
    if (same) {
      throw affordError('SUBSCRIPTION_INVALID', `client ${input.clientId} already has an active subscription to this URL (${same.subscriptionId}): remove or pause it first`);
    }
    const subscriptionId = `whs_${randomBytes(10).toString('hex')}`;
    const shared = clientStateWriter(this.store);
    if (shared) {
      const now = new Date().toISOString();
      const { clientId, url, events, headers, secret } = input;
      const value = { subscription_id: subscriptionId, client_id: clientId, url, events, headers, secret, active: true, created_at: now, updated_at: now };
      await shared.write({ kind: 'webhook-subscription', id: subscriptionId, value });
    } else await this.store.write((conn) =>
      queryFile(conn, 'queries/webhooks/insert-subscription', {
        subscription_id: subscriptionId,
        client_id: input.clientId,
        url: input.url,
        events: listValue(input.events),
        headers: JSON.stringify(input.headers),
        secret: input.secret,
        now: dbTime(),
      }),
    );
    const created = (await this.list(input.clientId)).find((s) => s.subscriptionId === subscriptionId);
    if (!created) throw affordError('RECORD_NOT_STORED', 'subscription', subscriptionId);
    return created;
  }

  async list(clientId?: string): Promise<Subscription[]> {
    const rows = await this.store.read((conn) =>
      queryFile<SubscriptionRow>(conn, 'queries/webhooks/list-subscriptions', { client_id: clientId ?? null }, SUBSCRIPTION_COLUMNS),
    );
    return rows.map(toSubscription);
  }

  /** False when there is no such subscription; refused when activating it would make a second active one to its URL. */
  async setActive(subscriptionId: string, active: boolean): Promise<boolean> {
    if (active) {
      const all = await this.list();
      const it = all.find((s) => s.subscriptionId === subscriptionId);
      const same = it && all.find((s) => s.active && s.subscriptionId !== subscriptionId && s.clientId === it.clientId && s.url === it.url);
      if (it && same) {
        throw affordError('SUBSCRIPTION_INVALID', `client ${it.clientId} already has an active subscription to this URL (${same.subscriptionId}): pause it first`);
      }
    }
    const shared = clientStateWriter(this.store);
    if (shared) {
      const found = (await this.list()).find((s) => s.subscriptionId === subscriptionId);
      const secrets = await this.store.read((conn) => queryFile<{ secret: string | null }>(conn, 'queries/webhooks/subscription-secret', { subscription_id: subscriptionId }, { secret: 'text' }));
      if (!found || !secrets[0]) return false;
      const value = {
        subscription_id: subscriptionId, client_id: found.clientId, url: found.url, events: found.events, headers: found.headers,
        secret: secrets[0].secret, active, created_at: found.createdAt, updated_at: new Date().toISOString(),
      };
      await shared.write({ kind: 'webhook-subscription', id: subscriptionId, value });
      // Removed through another shard at the same moment, and that came after: the change did not stand.
      return (await this.list()).some((s) => s.subscriptionId === subscriptionId);
    }
    const rows = await this.store.write((conn) =>
      queryFile(conn, 'queries/webhooks/set-subscription-active', { subscription_id: subscriptionId, active, now: dbTime() }),
    );
    return rows.length > 0;
  }

  async clientKnown(clientId: string): Promise<boolean> {
    const rows = await this.store.read((conn) => queryFile<{ known: boolean }>(conn, 'queries/webhooks/client-exists', { client_id: clientId }, { known: 'boolean' }));
    return rows[0]?.known === true;
  }
}
