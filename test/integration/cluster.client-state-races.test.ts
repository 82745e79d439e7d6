import { afterEach, describe, expect, it } from 'vitest';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { BucketDefinitionsRepository } from '../../src/api/repositories/bucket-definitions.repository.js';
import { applyClientState, notifyClientStateApplied, setClientStateWriter } from '../../src/db/client-state.js';
import type { ClientStateChange } from '../../src/domain/client-state.js';
import { CORE_DASHBOARD } from '../../src/domain/core-dashboard.js';
import { rows, tempStore } from '../helpers/store.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

/**
 * A shard's view of the client-state topic, without Kafka: each change this
 * shard writes is applied in topic order, after `before` (another shard's
 * changes that reached the topic first) and before `after` (those that came
 * just behind it), as every shard would apply them.
 */
function topic(ctx: Ctx) {
  const race = { before: [] as ClientStateChange[], after: [] as ClientStateChange[] };
  setClientStateWriter(ctx.store, {
    write: async (change) => {
      const order = [...race.before.splice(0), change, ...race.after.splice(0)];
      await ctx.store.write(async (conn) => {
        for (const c of order) await applyClientState(conn, c);
      });
      notifyClientStateApplied(ctx.store, order);
    },
    caughtUp: async () => undefined,
  });
  return race;
}

const client = (id: string, secretHash: string, generation: number): ClientStateChange => ({
  kind: 'api-client', id,
  value: { client_id: id, name: 'Lender', secret_hash: secretHash, token_generation: generation, created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-02T00:00:00.000Z' },
});

describe('two shards writing one client-level record at the same moment', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  const open = async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    return { ctx, race: topic(ctx), clients: new ClientsRepository(ctx.store) };
  };

  it('tells the writer of a creation overtaken by another that the client exists: the later creation stands', async () => {
    const { ctx, race, clients } = await open();
    race.after.push(client('dup', 'sha256$theirs$00', 0));
    await expect(clients.insertClient('dup', 'Lender', 'sha256$mine$00')).rejects.toThrow("client 'dup' already exists");
    expect(await rows(ctx.store, "SELECT secret_hash FROM api_clients WHERE client_id = 'dup'")).toEqual([{ secret_hash: 'sha256$theirs$00' }]);
  });

  it('tells the writer of a rotation overtaken by another that its secret is not the one that stands', async () => {
    const { ctx, race, clients } = await open();
    await clients.insertClient('rot', 'Lender', 'sha256$zero$00');
    race.after.push(client('rot', 'sha256$theirs$00', 1));
    await expect(clients.replaceSecret('rot', 'Lender', 'sha256$mine$00')).rejects.toThrow('client rot was changed at the same moment through another shard');
    expect(await rows(ctx.store, "SELECT secret_hash FROM api_clients WHERE client_id = 'rot'")).toEqual([{ secret_hash: 'sha256$theirs$00' }]);
  });

  it('answers a replacement overtaken by a deletion through another shard as not found', async () => {
    const { ctx, race } = await open();
    const buckets = new BucketDefinitionsRepository(ctx.store);
    const body = { ...CORE_DASHBOARD, name: 'mine' };
    await buckets.insert('bkt-1', 'client-x', body, '2024-01-01T00:00:00.000Z');
    race.after.push({ kind: 'bucket-definition', id: 'bkt-1', value: null });
    expect(await buckets.replace('bkt-1', 'client-x', { ...body, name: 'changed' }, '2024-01-02T00:00:00.000Z')).toBe(false);
    expect(await rows(ctx.store, "SELECT count(*)::INTEGER AS n FROM bucket_definitions WHERE bucket_id = 'bkt-1'")).toEqual([{ n: 0 }]);
  });

  it('builds from the last change of each record alone what it builds from the whole history, as a compacted topic keeps it', async () => {
    const history: ClientStateChange[] = [
      client('a', 'sha256$a0$00', 0), client('b', 'sha256$b0$00', 0), client('a', 'sha256$a1$00', 1),
      { kind: 'api-client', id: 'b', value: null }, client('b', 'sha256$b1$00', 0), client('c', 'sha256$c0$00', 0), { kind: 'api-client', id: 'c', value: null },
    ];
    const compacted = [...new Map(history.map((c) => [c.id, c])).values()];
    const held = async (changes: readonly ClientStateChange[]) => {
      const { ctx } = await open();
      await ctx.store.write(async (conn) => {
        for (const c of changes) await applyClientState(conn, c);
      });
      return rows(ctx.store, "SELECT client_id, secret_hash FROM api_clients WHERE client_id IN ('a', 'b', 'c') ORDER BY 1");
    };
    const whole = await held(history);
    expect(whole).toEqual([{ client_id: 'a', secret_hash: 'sha256$a1$00' }, { client_id: 'b', secret_hash: 'sha256$b1$00' }]);
    expect(await held(compacted)).toEqual(whole);
  });
});
