import kafkajs, {
  AssignerProtocol,
  Kafka,
  logLevel,
  Partitioners,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  type LogEntry,
  type PartitionAssigner,
  type SASLOptions,
} from 'kafkajs';
import type { Logger } from '../logger.js';
import { describeConnection, plaintextSaslWarning, type KafkaConnection, type KafkaIngestSettings, type Shard } from './kafka-settings.js';
import { decodeShardClaim, encodeShardClaim, planShardAssignment } from './shard-assigner.js';
import type { GroupConsumer, Headers, MessageProducer, OffsetReader, SourceBatch, SourceHandlers, SourceMessage } from './kafka-types.js';
import { framedNotJson, unframedJson } from './value-framing.js';
import { gzipCodec, lz4Codec, readingBatches, snappyCodec, zstdCodec } from './kafka-codecs.js';
import { refusedBatchOf } from './kafka-refused-batch.js';

/**
 * The only file that knows kafkajs: it implements kafka-types.ts, so a change
 * of client stays inside this file.
 */

// Every compression a producer may use, each bounded (kafka-codecs.ts); kafkajs reads only gzip by itself. Its codec
// table is global to the process, and this is the only place that fills it.
// (From the module's default export: Node finds no named export of these in kafkajs's CommonJS.)
const { CompressionCodecs, CompressionTypes } = kafkajs;
const codecs = { gzip: readingBatches(gzipCodec, 'gzip'), snappy: readingBatches(snappyCodec, 'Snappy'), lz4: readingBatches(lz4Codec, 'LZ4'), zstd: readingBatches(zstdCodec, 'ZStandard') };
CompressionCodecs[CompressionTypes.GZIP] = () => codecs.gzip;
CompressionCodecs[CompressionTypes.Snappy] = () => codecs.snappy;
CompressionCodecs[CompressionTypes.LZ4] = () => codecs.lz4;
CompressionCodecs[CompressionTypes.ZSTD] = () => codecs.zstd;

const RETRY = { initialRetryTime: 300, maxRetryTime: 30_000, retries: 8 };
const MAX_RELAUNCH_DELAY_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const PARTITIONS_IN_PARALLEL = 16;
const FETCH_WAIT_MS = 100;

function kafkajsLogLevel(logger: Logger): logLevel {
  if (logger.isLevelEnabled('debug')) return logLevel.DEBUG;
  if (logger.isLevelEnabled('info')) return logLevel.INFO;
  return logger.isLevelEnabled('warn') ? logLevel.WARN : logLevel.ERROR;
}

function saslOptions(sasl: KafkaConnection['sasl']): SASLOptions | undefined {
  if (!sasl) return undefined;
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case 'plain':
      return { mechanism: 'plain', username, password };
    case 'scram-sha-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'scram-sha-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}

/** Connections already warned about (plaintextSaslWarning): once each, however many clients they make. */
const warnedConnections = new WeakSet<KafkaConnection>();

/** kafkajs logs into our pino logger, as structured lines. */
function createKafka(connection: KafkaConnection, logger: Logger): Kafka {
  const log = logger.child({ component: 'kafkajs' });
  const warning = plaintextSaslWarning(connection);
  if (warning !== undefined && !warnedConnections.has(connection)) {
    warnedConnections.add(connection);
    logger.warn({ component: 'kafka', ...describeConnection(connection) }, warning);
  }
  return new Kafka({
    clientId: connection.clientId,
    brokers: connection.brokers,
    ssl: connection.ssl,
    sasl: saslOptions(connection.sasl),
    retry: RETRY,
    logLevel: kafkajsLogLevel(logger),
    logCreator: () => (entry: LogEntry) => {
      // kafkajs's own timestamp and logger name would only repeat what pino adds.
      const extra: Record<string, unknown> = { ...entry.log };
      const message = extra.message;
      delete extra.message;
      delete extra.timestamp;
      delete extra.logger;
      const fields = { kafkajs: entry.namespace, ...extra };
      const text = String(message);
      // kafkajs reports every heartbeat answered during a rebalance as an error; a rebalance is routine.
      const routine = typeof extra.error === 'string' && /rebalanc/i.test(extra.error);
      if (entry.level === logLevel.ERROR && !routine) log.error(fields, text);
      else if (entry.level === logLevel.WARN) log.warn(fields, text);
      else if (entry.level <= logLevel.INFO) log.info(fields, text);
      else log.debug(fields, text);
    },
  });
}

/** kafkajs face of shard-assigner.ts: the shard rides in each member's join metadata. */
function shardPartitionAssigner(shard: Shard, logger: Logger): PartitionAssigner {
  return ({ cluster }) => ({
    name: 'AffordShardAssigner',
    version: 1,
    async assign({ members, topics }) {
      const claims = members.map((m) => {
        const meta = AssignerProtocol.MemberMetadata.decode(m.memberMetadata);
        return { memberId: m.memberId, shard: decodeShardClaim(meta?.userData), topics: meta?.topics ?? [] };
      });
      const partitions = new Map(topics.map((t) => [t, cluster.findTopicPartitionMetadata(t).map((p) => p.partitionId)]));
      const plan = planShardAssignment(claims, partitions);
      if (Object.keys(plan.unassigned).length) logger.warn({ unassigned: plan.unassigned }, 'partitions wait for a worker of their shard');
      return [...plan.assignments].map(([memberId, assignment]) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: 1, assignment, userData: Buffer.alloc(0) }),
      }));
    },
    protocol({ topics }) {
      return { name: 'AffordShardAssigner', metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: encodeShardClaim(shard) }) };
    },
  });
}

function toSourceBatch(payload: EachBatchPayload): SourceBatch {
  const { batch } = payload;
  // kafkajs keeps the requested offset on the batch without declaring it.
  const fetchedOffset = (batch as typeof batch & { fetchedOffset?: string }).fetchedOffset ?? batch.firstOffset() ?? '0';
  const messages: SourceMessage[] = [];
  for (const m of batch.messages) {
    const refused = refusedBatchOf(m.value);
    if (refused !== undefined) {
      // A batch refused by its codec: its last stand-in is its dead letter; the others are nothing.
      if (m.offset === refused.lastOffset) messages.push({ offset: m.offset, key: null, value: null, headers: {}, refused: refused.reason });
      continue;
    }
    // A Schema Registry's framing: the event is the JSON within, and the value as sent is kept for the DLQ.
    const json = unframedJson(m.value);
    // Properties set only when they apply, not spread: this runs for every message a fetch brings.
    const message: SourceMessage = { offset: m.offset, key: m.key, value: json ?? m.value, headers: (m.headers ?? {}) as Headers };
    if (json !== undefined) message.sent = m.value as Buffer;
    else {
      // Framed, but Avro or Protobuf within: a dead letter that says so.
      const notJson = framedNotJson(m.value);
      if (notJson !== undefined) message.refused = notJson;
    }
    messages.push(message);
  }
  // The last record returned, which may be a marker or an aborted message the client kept from the batch.
  const lastRecord = BigInt(batch.lastOffset());
  const lastMessage = messages.at(-1);
  const held = lastMessage !== undefined && lastRecord > BigInt(lastMessage.offset);
  return {
    topic: batch.topic,
    partition: batch.partition,
    fetchedOffset: String(fetchedOffset),
    highWatermark: batch.highWatermark,
    messages,
    ...(held ? { readTo: String(lastRecord + 1n) } : {}),
  };
}

/**
 * Joins the consumer group and keeps it joined: kafkajs restarts itself after
 * most failures, and whatever it gives up on (a broker down for longer than
 * its retries, a failed first connect) is relaunched here with backoff.
 */
export function startGroupConsumer(settings: KafkaIngestSettings, handlers: SourceHandlers, logger: Logger): GroupConsumer {
  const log = logger.child({ component: 'kafka-consumer', group_id: settings.groupId });
  const consumer: Consumer = createKafka(settings.connection, logger).consumer({
    groupId: settings.groupId,
    partitionAssigners: [shardPartitionAssigner(settings.shard, log)],
    maxBytesPerPartition: settings.batchBytes,
    maxBytes: Math.max(settings.batchBytes, 10 * 1024 * 1024),
    // A short long-poll keeps a steady stream fresh: the test broker answers a fetch that found nothing only after
    // the whole wait, even when messages arrive meanwhile (measured: at 1 s, half the events took over 1 s to be
    // visible). An idle worker costs ten small fetches a second.
    maxWaitTimeInMs: FETCH_WAIT_MS,
    sessionTimeout: settings.sessionTimeoutMs,
    // The time members get to rejoin in a rebalance; a long DuckDB batch must fit in it.
    rebalanceTimeout: Math.max(60_000, settings.sessionTimeoutMs),
    heartbeatInterval: Math.min(3_000, Math.floor(settings.sessionTimeoutMs / 3)),
    retry: RETRY,
  });
  let stopping = false;
  let joined = false;
  // kafkajs's seek throws while it has no group: between a crash's disconnect and the CRASH event (when `joined` is
  // still true). Nothing is lost by skipping it: a rejoin seeks every assigned partition again (onAssigned).
  const seek = (target: { topic: string; partition: number; offset: string }): void => {
    try {
      consumer.seek(target);
    } catch (err) {
      log.warn({ err: (err as Error).message, ...target }, 'seek skipped: the consumer is restarting, and seeks its partitions again as it rejoins');
    }
  };
  let failures = 0;
  let relaunchTimer: NodeJS.Timeout | undefined;

  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    failures = 0;
    joined = true;
    const assignment = new Map(Object.entries(event.payload.memberAssignment));
    for (const target of handlers.onAssigned(assignment)) seek(target);
  });

  const relaunchLater = (reason: string): void => {
    if (stopping || relaunchTimer) return;
    const delay = Math.min(MAX_RELAUNCH_DELAY_MS, 500 * 2 ** Math.min(failures, 10));
    failures++;
    log.warn({ reason, retry_in_ms: delay, attempt: failures }, 'Kafka consumer is down; retrying');
    relaunchTimer = setTimeout(() => {
      relaunchTimer = undefined;
      void launch();
    }, delay);
  };

  // A fetch of a partition that held only markers or an aborted transaction's messages reaches no eachBatch: kafkajs
  // moves past it, and says so only through this event (with no messages, and the records' offsets).
  consumer.on(consumer.events.END_BATCH_PROCESS, (event) => {
    const { topic, partition, batchSize, firstOffset, lastOffset, highWatermark } = event.payload;
    if (batchSize === 0 && firstOffset !== null) handlers.onPassed?.(topic, partition, firstOffset, lastOffset, highWatermark);
  });

  consumer.on(consumer.events.CRASH, (event) => {
    joined = false;
    handlers.onRestart(event.payload.error.message);
    if (!event.payload.restart) relaunchLater(event.payload.error.message);
  });

  const launch = async (): Promise<void> => {
    if (stopping) return;
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: settings.topics, fromBeginning: true });
      // stop() may have come while connecting: then run nothing, or the consumer would outlive it.
      if (stopping) {
        await consumer.disconnect();
        return;
      }
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        // Partitions in parallel: every partition's batch of a fetch reaches the batcher (kafka-batcher.ts) at once.
        partitionsConsumedConcurrently: PARTITIONS_IN_PARALLEL,
        eachBatch: async (payload) => {
          const { topic, partition } = payload.batch;
          await handlers.onBatch(toSourceBatch(payload), {
            heartbeat: () => payload.heartbeat(),
            isRunning: () => payload.isRunning(),
            isStale: () => payload.isStale(),
            markDone: (offset) => payload.resolveOffset(offset),
            seek: (offset) => seek({ topic, partition, offset }),
          });
          failures = 0;
        },
      });
    } catch (err) {
      await consumer.disconnect().catch(() => undefined);
      if (stopping) return;
      handlers.onRestart((err as Error).message);
      relaunchLater((err as Error).message);
    }
  };
  void launch();

  return {
    seek: (topic, partition, offset) => {
      if (joined) seek({ topic, partition, offset });
    },
    commitForLag: async (offsets) => {
      if (!joined || offsets.length === 0) return;
      await consumer.commitOffsets([...offsets]).catch((err: unknown) => {
        log.debug({ err, offsets }, 'lag commit to Kafka failed');
      });
    },
    stop: async () => {
      stopping = true;
      clearTimeout(relaunchTimer);
      if (!joined) {
        // Not in the group (brokers unreachable): nothing to finish or leave, and kafkajs would wait out its connect retries.
        void consumer.disconnect().catch(() => undefined);
        log.info('Kafka consumer stopped before joining the group');
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS);
      });
      const outcome = await Promise.race([consumer.disconnect().then(() => 'left' as const), timeout]).catch((err: unknown) => {
        log.warn({ err }, 'Kafka consumer did not disconnect cleanly');
        return 'failed' as const;
      });
      clearTimeout(timer);
      if (outcome === 'timeout') log.warn({ ms: STOP_TIMEOUT_MS }, 'Kafka consumer took too long to leave the group; stopping anyway');
      else if (outcome === 'left') log.info('Kafka consumer left the group');
    },
  };
}

function toHeaders(headers: Headers | undefined): IHeaders | undefined {
  return headers as IHeaders | undefined;
}

/**
 * A producer that connects on first use, so that a worker can start while the
 * brokers are down. Sends wait for all in-sync replicas.
 */
export function createProducer(connection: KafkaConnection, logger: Logger, options: { retries?: number } = {}): MessageProducer {
  const producer = createKafka(connection, logger).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: true,
    retry: { ...RETRY, retries: options.retries ?? RETRY.retries },
  });
  let connected: Promise<void> | undefined;
  const ensureConnected = (): Promise<void> => {
    connected ??= producer.connect().catch((err: unknown) => {
      connected = undefined;
      throw err;
    });
    return connected;
  };
  return {
    send: async (topicMessages) => {
      if (topicMessages.every((t) => t.messages.length === 0)) return;
      await ensureConnected();
      await producer.sendBatch({
        acks: -1,
        topicMessages: topicMessages.map(({ topic, messages }) => ({
          topic,
          messages: messages.map((m) => ({ key: m.key, value: m.value, headers: toHeaders(m.headers) })),
        })),
      });
    },
    close: async () => {
      if (connected) await producer.disconnect().catch(() => undefined);
      connected = undefined;
    },
  };
}

/** Reads partition ends and starts through an admin client that connects on first use. */
export function createOffsetReader(connection: KafkaConnection, logger: Logger): OffsetReader {
  const admin = createKafka(connection, logger).admin({ retry: { ...RETRY, retries: 2 } });
  let connected: Promise<void> | undefined;
  const offsets = async (topics: readonly string[], which: 'high' | 'low'): Promise<Map<string, bigint>> => {
    connected ??= admin.connect().catch((err: unknown) => {
      connected = undefined;
      throw err;
    });
    await connected;
    const found = new Map<string, bigint>();
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic)) found.set(`${topic}#${p.partition}`, BigInt(p[which]));
    }
    return found;
  };
  return {
    endOffsets: (topics) => offsets(topics, 'high'),
    startOffsets: (topics) => offsets(topics, 'low'),
    close: async () => {
      if (connected) await admin.disconnect().catch(() => undefined);
      connected = undefined;
    },
  };
}
