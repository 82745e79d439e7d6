import { describe, expect, it } from 'vitest';
import { KafkaBatcher } from '../../src/ingest/kafka-batcher.js';
import type { SourceMessage } from '../../src/ingest/kafka-types.js';
import type { KafkaBatchWriter, PartitionChunk, WriteOutcome } from '../../src/ingest/kafka-writer.js';
import { createLogger } from '../../src/logger.js';
import { until } from '../helpers/time.js';

const chunkAt = (partition: number, offset: number): PartitionChunk => ({
  topic: 'afford.batcher-test.v1',
  partition,
  messages: [{ offset: String(offset), key: null, value: Buffer.from(`m${offset}`), headers: {} } satisfies SourceMessage],
  highWatermark: String(offset + 1),
});

describe('the Kafka batcher', () => {
  it('writes a chunk queued just as its write loop ends, in the same turn of the event loop', async () => {
    const written: string[] = [];
    const writer = {
      write: async (chunks: readonly PartitionChunk[]): Promise<WriteOutcome> => {
        written.push(...chunks.map((c) => `${c.partition}@${c.messages[0]?.offset}`));
        return { committed: [...chunks], failed: [] };
      },
    } as unknown as KafkaBatchWriter;
    let queuedLate = false;
    const batcher: KafkaBatcher = new KafkaBatcher(writer, { rows: 1, bytes: 1 << 20, waitMs: 0 }, new Map(), {
      committed: (chunks) => {
        // The next fetch's chunk arrives after this write has committed but before the loop has let go of it.
        if (chunks.some(({ chunk }) => chunk.partition === 0) && !queuedLate) {
          queuedLate = true;
          queueMicrotask(() => batcher.add(chunkAt(1, 7)));
        }
      },
      dropped: () => undefined,
    }, createLogger('silent'));
    batcher.add(chunkAt(0, 3));
    await until(() => written.length === 2, () => `written so far: ${written.join(', ') || 'nothing'}`, 2000, 5);
    expect(written).toEqual(['0@3', '1@7']);
    await batcher.close();
  });

  it('hands chunks ahead, for their fast rows, only once the queue holds enough events for the fast path, each chunk once', async () => {
    let offset = 0;
    const chunkOf = (partition: number, n: number): PartitionChunk => {
      const messages = Array.from({ length: n }, () => ({ offset: String(offset), key: null, value: Buffer.from(`m${offset++}`), headers: {} }) satisfies SourceMessage);
      return { topic: 'afford.batcher-test.v1', partition, messages, highWatermark: String(offset) };
    };
    // The writer holds each transaction until released, so that chunks queue up behind it.
    let holding: Array<() => void> = [];
    let hold = true;
    const writer = {
      write: async (chunks: readonly PartitionChunk[]): Promise<WriteOutcome> => {
        if (hold) await new Promise<void>((resolve) => holding.push(resolve));
        return { committed: [...chunks], failed: [] };
      },
    } as unknown as KafkaBatchWriter;
    const releaseAll = (): void => {
      const held = holding;
      holding = [];
      held.forEach((resolve) => resolve());
    };
    const writing = (): Promise<void> => until(() => holding.length === 1, () => 'a transaction being written', 2000, 5);
    const handed: string[] = [];
    const name = (c: PartitionChunk): string => `${c.partition}@${c.messages[0]?.offset}+${c.messages.length}`;
    const batcher = new KafkaBatcher(writer, { rows: 10_000, bytes: 1 << 26, waitMs: 0, aheadRows: 100 }, new Map(), {
      committed: () => undefined,
      dropped: () => undefined,
      ahead: (c) => handed.push(name(c)),
    }, createLogger('silent'));
    // A steady stream: small chunks, each written on its own, none handed ahead.
    for (let i = 0; i < 3; i++) {
      batcher.add(chunkOf(i, 10));
      await writing();
      releaseAll();
    }
    expect(handed).toEqual([]);
    // The writer stalls; chunks queue up behind it, under the threshold, then past it.
    batcher.add(chunkOf(0, 10));
    await writing();
    const queued = [chunkOf(1, 40), chunkOf(2, 40)];
    queued.forEach((c) => batcher.add(c));
    expect(handed).toEqual([]);
    const crossing = chunkOf(3, 30);
    batcher.add(crossing);
    expect(handed).toEqual([...queued, crossing].map(name));
    const later = chunkOf(4, 5);
    batcher.add(later);
    expect(handed).toEqual([...queued, crossing, later].map(name));
    hold = false;
    releaseAll();
    await batcher.close();
  });

  it('fills a transaction with whole chunks up to its limits, a chunk that does not fit waiting whole for the next', async () => {
    let offset = 0;
    const chunkOf = (partition: number, n: number): PartitionChunk => {
      const messages = Array.from({ length: n }, () => ({ offset: String(offset), key: null, value: Buffer.from(`m${offset++}`), headers: {} }) satisfies SourceMessage);
      return { topic: 'afford.batcher-test.v1', partition, messages, highWatermark: String(offset) };
    };
    const transactions: string[][] = [];
    let release: (() => void) | undefined;
    const writer = {
      write: async (chunks: readonly PartitionChunk[]): Promise<WriteOutcome> => {
        transactions.push(chunks.map((c) => `${c.partition}:${c.messages[0]?.offset}-${c.messages.at(-1)?.offset}`));
        // The first transaction is held, so that the rest queue up behind it.
        if (transactions.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return { committed: [...chunks], failed: [] };
      },
    } as unknown as KafkaBatchWriter;
    const batcher = new KafkaBatcher(writer, { rows: 100, bytes: 1 << 26, waitMs: 0 }, new Map(), { committed: () => undefined, dropped: () => undefined }, createLogger('silent'));
    batcher.add(chunkOf(0, 1));
    await until(() => release !== undefined, () => 'the first transaction', 2000, 5);
    // 60 + 30 fit; the next 30 would make 120: it waits whole, with what came after it, rather than being cut at 100.
    for (const [partition, n] of [[1, 60], [2, 30], [1, 30], [3, 50], [2, 40]] as const) batcher.add(chunkOf(partition, n));
    release?.();
    await until(() => transactions.length === 4, () => JSON.stringify(transactions), 2000, 5);
    expect(transactions).toEqual([['0:0-0'], ['1:1-60', '2:61-90'], ['1:91-120', '3:121-170'], ['2:171-210']]);
    await batcher.close();
  });

  it('closes at once when it is closed during a write that then fails, without waiting out the pause before reading again', async () => {
    let fail: (() => void) | undefined;
    const writing = new Promise<void>((resolve) => {
      fail = resolve;
    });
    let writes = 0;
    const writer = {
      write: async (chunks: readonly PartitionChunk[]): Promise<WriteOutcome> => {
        writes += 1;
        await writing;
        return { committed: [], failed: [...chunks], error: new Error('the store is at fault') };
      },
    } as unknown as KafkaBatchWriter;
    let dropped = 0;
    const batcher = new KafkaBatcher(writer, { rows: 1, bytes: 1 << 20, waitMs: 0 }, new Map(), { committed: () => undefined, dropped: () => void dropped++ }, createLogger('silent'));
    batcher.add(chunkAt(0, 3));
    await until(() => writes === 1, () => 'the write never began', 2000, 5);
    const closing = batcher.close();
    fail?.();
    await closing;
    // The pause (half a second at first, up to half a minute) was not waited out, nor the partitions read again after it:
    // the next start reads them from the store.
    expect(dropped).toBe(0);
    expect(writes).toBe(1);
  });
});
