import { errorCode } from '../domain/errors.js';
import type { KafkaBatchWriter, PartitionChunk } from './kafka-writer.js';

interface Waiting {
  chunk: PartitionChunk;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit. Partitions are consumed concurrently, and the chunks that
 * arrive while a transaction runs go together into the next one, up to
 * `maxRows`: a DuckDB transaction has a fixed cost that small Kafka batches
 * would otherwise pay one by one. Each caller still learns only once its own
 * chunk has committed, so the client's view of each partition stays exact.
 */
export class GroupCommitter {
  private readonly queue: Waiting[] = [];
  private draining = false;

  constructor(
    private readonly writer: KafkaBatchWriter,
    private readonly maxRows: number,
  ) {}

  submit(chunk: PartitionChunk): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ chunk, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      // One turn of the event loop lets the other batches of the same fetch join the first transaction.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.queue.length > 0) await this.flush(this.take());
    } finally {
      this.draining = false;
    }
  }

  private take(): Waiting[] {
    const group = [this.queue.shift() as Waiting];
    let rows = group[0]?.chunk.messages.length ?? 0;
    while (this.queue.length > 0 && rows + (this.queue[0]?.chunk.messages.length ?? 0) <= this.maxRows) {
      const next = this.queue.shift() as Waiting;
      rows += next.chunk.messages.length;
      group.push(next);
    }
    return group;
  }

  private async flush(group: Waiting[]): Promise<void> {
    try {
      await this.writer.commit(group.map((w) => w.chunk));
      for (const w of group) w.resolve();
      return;
    } catch (err) {
      if (errorCode(err) === 'DLQ_PUBLISH_FAILED') {
        for (const w of group) w.reject(err);
        return;
      }
    }
    // The group failed as a whole: each chunk alone, so that a fault in one partition's chunk holds back only that partition.
    for (const w of group) {
      try {
        await this.writer.commit([w.chunk]);
        w.resolve();
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
