import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseClientStateMessage } from '../../src/domain/client-state.js';
import { loggedLines } from '../helpers/log-lines.js';
import { rows, tempStore } from '../helpers/store.js';

// The store refuses a change that holds `poison` in its name; every other change is applied as it is.
vi.mock('../../src/db/client-state.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/db/client-state.js')>();
  return {
    ...real,
    applyClientState: async (...args: Parameters<typeof real.applyClientState>) => {
      const value = args[1].value as { name?: string } | null;
      if (value?.name?.includes('poison')) throw new Error('Conversion Error: the store refuses this change');
      // A failure of the store itself, which the next try may not meet.
      if (value?.name?.includes('flaky') && flaky.failures-- > 0) throw new Error('Out of Memory Error: could not allocate block');
      return real.applyClientState(...args);
    },
  };
});

const flaky = vi.hoisted(() => ({ failures: 0 }));

const { ClientStateReplica } = await import('../../src/cluster/client-state-replica.js');

const client = (id: string, name: string) => ({
  client_id: id, name, secret_hash: 'sha256$s$00', token_generation: 0, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z',
});
const message = (offset: number, id: string, name: string) => ({ offset: String(offset), key: Buffer.from(`api-client/${id}`), value: Buffer.from(JSON.stringify(client(id, name))), headers: {} });

describe('a client-state batch holding a change the store refuses', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('applies the rest, skips that change with an error in the log, and moves on, rather than retrying the batch for ever', async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    const { logger, lines } = loggedLines('info');
    // Built without its Kafka parts: the batch is handed to it as the consumer would.
    const Replica = ClientStateReplica as unknown as new (...args: unknown[]) => { onBatch(batch: unknown, control: unknown): Promise<void> };
    const replica = new Replica(ctx.store, { kafka: {}, topic: 'afford.client-state.v1', waitMs: 1000 }, {}, { endOffsets: async () => new Map() }, logger);
    const done: string[] = [];
    const control = { isRunning: () => true, isStale: () => false, markDone: (o: string) => done.push(o), heartbeat: async () => undefined, seek: () => undefined };
    await replica.onBatch({ topic: 'afford.client-state.v1', partition: 0, fetchedOffset: '0', highWatermark: '3', messages: [
      message(0, 'good-1', 'Lender one'), message(1, 'bad', 'poison pill'), message(2, 'good-2', 'Lender two'),
    ] }, control);
    expect(done).toEqual(['2']);
    expect(await rows(ctx.store, "SELECT client_id FROM api_clients WHERE client_id IN ('good-1', 'good-2', 'bad') ORDER BY 1")).toEqual([{ client_id: 'good-1' }, { client_id: 'good-2' }]);
    expect(await rows(ctx.store, 'SELECT kafka_partition, next_offset::VARCHAR AS next_offset FROM client_state_offsets')).toEqual([{ kafka_partition: 0, next_offset: '3' }]);
    expect(lines.filter((l) => l.msg.startsWith('client-state change skipped'))).toEqual([expect.objectContaining({ level: 50, key: 'api-client/bad' })]);
  });

  it('refuses before the store what no shard could store: an instant that is not one, more rotations than any client makes', () => {
    expect(parseClientStateMessage('api-client/x', JSON.stringify({ ...client('x', 'n'), created_at: 'not a date' }))).toMatch(/created_at: must be an ISO 8601 instant/);
    expect(parseClientStateMessage('api-client/x', JSON.stringify({ ...client('x', 'n'), updated_at: '2024-02-30T00:00:00Z' }))).toMatch(/updated_at: must be a real instant/);
    expect(parseClientStateMessage('api-client/x', JSON.stringify({ ...client('x', 'n'), token_generation: 2e9 }))).toMatch(/token_generation/);
  });

  it("fails the batch, to be read again, when the store fails for its own reasons, rather than skip what every other shard applies", async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    const { logger } = loggedLines('info');
    const Replica = ClientStateReplica as unknown as new (...args: unknown[]) => { onBatch(batch: unknown, control: unknown): Promise<void> };
    const replica = new Replica(ctx.store, { kafka: {}, topic: 'afford.client-state.v1', waitMs: 1000 }, {}, { endOffsets: async () => new Map() }, logger);
    const done: string[] = [];
    const control = { isRunning: () => true, isStale: () => false, markDone: (o: string) => done.push(o), heartbeat: async () => undefined, seek: () => undefined };
    const batch = { topic: 'afford.client-state.v1', partition: 0, fetchedOffset: '0', highWatermark: '1', messages: [message(0, 'rotated', 'flaky lender')] };
    // The batch and the change alone both meet the failure: nothing is applied, and no offset moves.
    flaky.failures = 2;
    await expect(replica.onBatch(batch, control)).rejects.toThrow(/Out of Memory/);
    expect(done).toEqual([]);
    expect(await rows(ctx.store, 'SELECT count(*)::INTEGER AS n FROM client_state_offsets')).toEqual([{ n: 0 }]);
    // Read again once the store is well: the change goes in.
    await replica.onBatch(batch, control);
    expect(done).toEqual(['0']);
    expect(await rows(ctx.store, "SELECT client_id FROM api_clients WHERE client_id = 'rotated'")).toEqual([{ client_id: 'rotated' }]);
  });
});
