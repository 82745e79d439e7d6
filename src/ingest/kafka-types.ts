/**
 * What the service needs of a Kafka client, in its own terms. kafka-client.ts
 * implements it with kafkajs; nothing else knows which client is underneath.
 */

export type HeaderValue = Buffer | string | (Buffer | string)[] | undefined;
export type Headers = Record<string, HeaderValue>;

export interface SourceMessage {
  offset: string;
  key: Buffer | null;
  /** The event's bytes: the value, or the JSON within it (value-framing.ts). */
  value: Buffer | null;
  headers: Headers;
  /** The value as the producer sent it, when `value` is only the JSON within it: what the DLQ sends back. */
  sent?: Buffer;
  /** Why this is a dead letter before it is read: it stands for a record batch its codec refused (kafka-refused-batch.ts), or its value is framed for a Schema Registry but holds no JSON (value-framing.ts). */
  refused?: string;
}

export interface SourceBatch {
  topic: string;
  partition: number;
  /** The offset the client asked the broker for. */
  fetchedOffset: string;
  highWatermark: string;
  messages: SourceMessage[];
  /**
   * The offset after the last record the broker returned, when the client
   * held records back past the last message: a transactional producer's
   * markers, or an aborted transaction's messages. No event is at those
   * offsets, so the partition is read up to here.
   */
  readTo?: string;
}

export interface BatchControl {
  heartbeat(): Promise<void>;
  /** False once stop() was called: finish the transaction in hand and return. */
  isRunning(): boolean;
  /** True when a seek is pending for this partition: the rest of the batch is not wanted. */
  isStale(): boolean;
  /** The client's fetch position moves past `offset`. */
  markDone(offset: string): void;
  seek(offset: string): void;
}

export interface PartitionSeek {
  topic: string;
  partition: number;
  offset: string;
}

export interface SourceHandlers {
  /** Called as the group assigns partitions, before any fetch: returns where to read from. */
  onAssigned(assignment: ReadonlyMap<string, readonly number[]>): PartitionSeek[];
  onBatch(batch: SourceBatch, control: BatchControl): Promise<void>;
  /**
   * The client fetched records from `first` to `last` (offsets, inclusive)
   * of which none is an event (transaction markers, an aborted transaction's
   * messages), and so gave no batch of them to onBatch.
   */
  onPassed?(topic: string, partition: number, first: string, last: string, highWatermark: string): void;
  /** The client lost the brokers or the group and is starting again. */
  onRestart(reason: string): void;
}

/** A partition's next offset, as committed to Kafka for lag monitoring. */
export interface LagOffset {
  topic: string;
  partition: number;
  offset: string;
}

export interface GroupConsumer {
  /** Moves a partition's fetch position; the batches fetched before it are stale. */
  seek(topic: string, partition: number, offset: string): void;
  /** Commits to Kafka in one request, which only serves lag monitoring; failures are logged, not thrown. */
  commitForLag(offsets: readonly LagOffset[]): Promise<void>;
  /** Finishes the batch in hand, leaves the group and disconnects. */
  stop(): Promise<void>;
}

export interface OutgoingMessage {
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Headers;
}

export interface MessageProducer {
  send(topicMessages: ReadonlyArray<{ topic: string; messages: OutgoingMessage[] }>): Promise<void>;
  close(): Promise<void>;
}

/** Partition ends (high watermarks), keyed `topic#partition`. */
export interface OffsetReader {
  endOffsets(topics: readonly string[]): Promise<Map<string, bigint>>;
  /** Partition starts (log start offsets, what retention left), keyed `topic#partition`. */
  startOffsets(topics: readonly string[]): Promise<Map<string, bigint>>;
  close(): Promise<void>;
}
