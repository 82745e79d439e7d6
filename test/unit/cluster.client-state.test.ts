import { describe, expect, it } from 'vitest';
import { EndOffsetRounds } from '../../src/cluster/end-offset-rounds.js';
import { clientStateKey, lastChangeOfEach, parseClientStateMessage, type ClientStateChange } from '../../src/domain/client-state.js';

const client = (id: string, name: string): ClientStateChange => ({
  kind: 'api-client',
  id,
  value: { client_id: id, name, secret_hash: 'h', token_generation: 0, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z' },
});

describe('client-state changes', () => {
  it('travel as <kind>/<id> and whole records, a deletion as a tombstone', () => {
    const change = client('client-1', 'Lender');
    expect(parseClientStateMessage(clientStateKey(change), JSON.stringify(change.value))).toEqual(change);
    expect(parseClientStateMessage('bucket-definition/b-1', null)).toEqual({ kind: 'bucket-definition', id: 'b-1', value: null });
    expect(parseClientStateMessage('planet/x', '{}')).toMatch(/not <kind>\/<id>/);
    expect(parseClientStateMessage('api-client/c', '{"client_id":"c"}')).toMatch(/secret_hash/);
    expect(parseClientStateMessage('api-client/c', 'not json')).toBe('value is not JSON');
  });

  it('apply only the last change of each record in a batch, in the order of those last changes', () => {
    const a1 = client('a', 'one');
    const b = client('b', 'two');
    const a2 = { ...a1, value: null };
    expect(lastChangeOfEach([a1, b, a2])).toEqual([b, a2]);
  });
});

describe('end offset rounds', () => {
  it('never answer a caller with ends asked before it came, and ask once for all who wait together', async () => {
    const asked: Array<(ends: Map<number, bigint>) => void> = [];
    const rounds = new EndOffsetRounds(() => new Promise((resolve) => asked.push(resolve)));
    const first = rounds.next();
    await Promise.resolve();
    // Two callers arrive while the first request is out: neither may use its answer.
    const second = rounds.next();
    const third = rounds.next();
    asked[0]?.(new Map([[0, 5n]]));
    expect(await first).toEqual(new Map([[0, 5n]]));
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toHaveLength(2);
    asked[1]?.(new Map([[0, 9n]]));
    expect(await second).toEqual(new Map([[0, 9n]]));
    expect(await third).toEqual(new Map([[0, 9n]]));
  });

  it('pass a failed request on to the callers of that round only', async () => {
    let calls = 0;
    const rounds = new EndOffsetRounds(async () => {
      if (calls++ === 0) throw new Error('brokers down');
      return new Map([[0, 1n]]);
    });
    await expect(rounds.next()).rejects.toThrow('brokers down');
    expect(await rounds.next()).toEqual(new Map([[0, 1n]]));
  });
});
