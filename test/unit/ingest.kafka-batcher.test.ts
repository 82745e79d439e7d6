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
      committed: (chunk) => {
        // The next fetch's chunk arrives after this write has committed but before the loop has let go of it.
        if (chunk.partition === 0 && !queuedLate) {
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
});
