import { describe, expect, it } from 'vitest';
import { KafkaBatcher } from '../../src/ingest/kafka-batcher.js';
import { partitionKey } from '../../src/ingest/kafka-offsets.js';
import type { SourceMessage } from '../../src/ingest/kafka-types.js';
import type { KafkaBatchWriter, PartitionChunk, PreparedWrite, WriteOutcome } from '../../src/ingest/kafka-writer.js';
import { silentLogger } from '../helpers/store.js';

const TOPIC = 't';

const chunk = (partition: number, from: number, count: number): PartitionChunk => ({
  topic: TOPIC,
  partition,
  messages: Array.from({ length: count }, (_, i): SourceMessage => ({ offset: String(from + i), key: null, value: Buffer.from(`m${from + i}`), headers: {} })),
});

const offsets = (group: readonly PartitionChunk[]): string[] => group.flatMap((c) => c.messages.map((m) => `${c.partition}@${m.offset}`));

/** A writer whose writes finish when the test says, recording what it was given. */
class HeldWriter {
  readonly writes: { group: PartitionChunk[]; prepared: PreparedWrite | undefined; finish: (ok: boolean) => void }[] = [];
  readonly prepared: { group: PartitionChunk[]; write: PreparedWrite }[] = [];
  readonly discarded: PreparedWrite[] = [];

  write(group: PartitionChunk[], prepared?: PreparedWrite): Promise<WriteOutcome> {
    return new Promise((resolve) => {
      this.writes.push({ group, prepared, finish: (ok) => resolve(ok ? { committed: group, failed: [] } : { committed: [], failed: group, error: new Error('disk full') }) });
    });
  }

  prepare(group: PartitionChunk[]): PreparedWrite {
    const write: PreparedWrite = { items: [], parsed: undefined };
    this.prepared.push({ group, write });
    return write;
  }

  discard(prepared: PreparedWrite): void {
    this.discarded.push(prepared);
  }
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(done()).toBe(true);
}

function batcherWith(writer: HeldWriter, queued = [chunk(0, 0, 10), chunk(0, 10, 10), chunk(1, 0, 10)]) {
  const positions = new Map<string, bigint>();
  const dropped: Map<string, { offset: bigint }>[] = [];
  const batcher = new KafkaBatcher(writer as unknown as KafkaBatchWriter, { rows: 10, bytes: 1 << 20, waitMs: 0 }, positions, {
    committed: () => undefined,
    dropped: (from) => dropped.push(new Map(from)),
  }, silentLogger);
  // By default three transactions' worth, queued before the first is cut: a backlog.
  for (const c of queued) batcher.add(c);
  return { batcher, positions, dropped };
}

describe('KafkaBatcher with a backlog', () => {
  it('takes the next transaction and has it prepared while the one before is written, then writes it with what was prepared', async () => {
    const writer = new HeldWriter();
    const { batcher } = batcherWith(writer);
    await until(() => writer.writes.length === 1);
    expect(offsets(writer.writes[0]?.group ?? [])).toEqual(offsets([chunk(0, 0, 10)]));
    // The second transaction was cut and prepared before the first finished.
    expect(writer.prepared.map((p) => offsets(p.group))).toEqual([offsets([chunk(0, 10, 10)])]);
    writer.writes[0]?.finish(true);
    await until(() => writer.writes.length === 2);
    expect(writer.writes[1]?.prepared).toBe(writer.prepared[0]?.write);
    writer.writes[1]?.finish(true);
    await until(() => writer.writes.length === 3);
    writer.writes[2]?.finish(true);
    await batcher.close();
    expect(writer.writes.flatMap((w) => offsets(w.group))).toEqual(offsets([chunk(0, 0, 10), chunk(0, 10, 10), chunk(1, 0, 10)]));
    expect(writer.discarded).toEqual([]);
  });

  it('takes the next transaction ahead as soon as it is queued in full, when that is after the write began', async () => {
    const writer = new HeldWriter();
    const { batcher } = batcherWith(writer, [chunk(0, 0, 10)]);
    await until(() => writer.writes.length === 1);
    expect(writer.prepared).toHaveLength(0);
    batcher.add(chunk(1, 0, 6));
    expect(writer.prepared).toHaveLength(0);
    batcher.add(chunk(1, 6, 4));
    expect(writer.prepared.map((p) => offsets(p.group))).toEqual([offsets([chunk(1, 0, 10)])]);
    writer.writes[0]?.finish(true);
    await until(() => writer.writes.length === 2);
    expect(writer.writes[1]?.prepared).toBe(writer.prepared[0]?.write);
    writer.writes[1]?.finish(true);
    await batcher.close();
  });

  it('writes a prepared transaction without the messages the one before it wrote (a chunk fetched twice), and without its parse', async () => {
    const writer = new HeldWriter();
    const { batcher } = batcherWith(writer, [chunk(0, 0, 10), chunk(0, 5, 10)]);
    await until(() => writer.writes.length === 1 && writer.prepared.length === 1);
    writer.writes[0]?.finish(true);
    await until(() => writer.writes.length === 2);
    expect(offsets(writer.writes[1]?.group ?? [])).toEqual(offsets([chunk(0, 10, 5)]));
    expect(writer.writes[1]?.prepared).toBeUndefined();
    expect(writer.discarded).toEqual([writer.prepared[0]?.write]);
    writer.writes[1]?.finish(true);
    await batcher.close();
  });

  it('drops the transaction prepared ahead with the queue, and names its first offsets to be read again', async () => {
    const writer = new HeldWriter();
    const { batcher } = batcherWith(writer);
    await until(() => writer.writes.length === 1 && writer.prepared.length === 1);
    const from = batcher.drop();
    expect([...from.values()].map((f) => `${f.partition}@${f.offset}`).sort()).toEqual(['0@10', '1@0']);
    expect(writer.discarded).toEqual([writer.prepared[0]?.write]);
    writer.writes[0]?.finish(true);
    await batcher.close();
    // Nothing dropped was written.
    expect(writer.writes).toHaveLength(1);
  });

  it('when the transaction in hand fails, lets the prepared one go and reads both again from their first offsets', async () => {
    const writer = new HeldWriter();
    const { batcher, dropped } = batcherWith(writer);
    await until(() => writer.writes.length === 1 && writer.prepared.length === 1);
    writer.writes[0]?.finish(false);
    // After the backoff (half a second for a first failure).
    await until(() => dropped.length === 1);
    expect([...(dropped[0]?.entries() ?? [])].map(([, f]) => String(f.offset)).sort()).toEqual(['0', '0']);
    expect([...(dropped[0]?.keys() ?? [])].sort()).toEqual([partitionKey(TOPIC, 0), partitionKey(TOPIC, 1)].sort());
    expect(writer.discarded).toEqual([writer.prepared[0]?.write]);
    await batcher.close();
    expect(writer.writes).toHaveLength(1);
  });
});
