import type { Config } from '../config.js';
import { affordError } from '../domain/errors.js';

/**
 * Kafka settings in the service's own terms, free of any client library, so
 * that the code around the consumer does not change with the client.
 */

export interface Shard {
  index: number;
  count: number;
}

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

export interface KafkaConnection {
  brokers: string[];
  clientId: string;
  ssl: boolean;
  sasl?: { mechanism: SaslMechanism; username: string; password: string };
}

export interface KafkaIngestSettings {
  connection: KafkaConnection;
  groupId: string;
  topics: string[];
  shard: Shard;
  /** Most events written in one DuckDB transaction. */
  batchRows: number;
  /** Most bytes fetched per partition; a transaction holds at most 16 times as many (and 24 MiB at least). */
  batchBytes: number;
  /** Longest a message waits for others to join its transaction. */
  batchWaitMs: number;
  /** How soon the group notices a worker that died without leaving. */
  sessionTimeoutMs: number;
}


export function kafkaConnectionFromConfig(config: Config): KafkaConnection {
  const brokers = config.AFFORD_KAFKA_BROKERS ?? [];
  if (brokers.length === 0) throw affordError('KAFKA_BROKERS_MISSING');
  const connection: KafkaConnection = { brokers, clientId: config.AFFORD_KAFKA_CLIENT_ID, ssl: config.AFFORD_KAFKA_SSL };
  const mechanism = config.AFFORD_KAFKA_SASL_MECHANISM;
  if (mechanism) {
    const username = config.AFFORD_KAFKA_SASL_USERNAME;
    const password = config.AFFORD_KAFKA_SASL_PASSWORD;
    if (!username || !password) {
      throw affordError('KAFKA_SASL_INCOMPLETE');
    }
    connection.sasl = { mechanism, username, password };
  }
  return connection;
}

export function kafkaIngestSettingsFromConfig(config: Config): KafkaIngestSettings {
  return {
    connection: kafkaConnectionFromConfig(config),
    groupId: config.AFFORD_KAFKA_GROUP_ID,
    topics: config.AFFORD_KAFKA_TOPICS,
    shard: config.AFFORD_SHARD,
    batchRows: config.AFFORD_INGEST_BATCH_ROWS,
    batchBytes: config.AFFORD_KAFKA_BATCH_BYTES,
    batchWaitMs: config.AFFORD_KAFKA_BATCH_WAIT_MS,
    sessionTimeoutMs: config.AFFORD_KAFKA_SESSION_TIMEOUT_MS,
  };
}

/**
 * A warning for a connection that sends its SASL password as it is: the
 * PLAIN mechanism without TLS puts it on the wire in clear, for anyone on
 * the path to read. Not refused, since a broker on the same host or a test
 * broker may be set up so, but said at every start. SCRAM never sends the
 * password itself.
 */
export function plaintextSaslWarning(c: KafkaConnection): string | undefined {
  return c.sasl?.mechanism === 'plain' && !c.ssl
    ? 'AFFORD_KAFKA_SASL_MECHANISM=plain without AFFORD_KAFKA_SSL=true sends the SASL password to the brokers in clear: turn TLS on, or use scram-sha-512'
    : undefined;
}

/** What may appear in a log line: never the SASL password. */
export function describeConnection(c: KafkaConnection): Record<string, unknown> {
  return { brokers: c.brokers, kafka_client_id: c.clientId, ssl: c.ssl, sasl: c.sasl ? { mechanism: c.sasl.mechanism, username: c.sasl.username } : undefined };
}

export const dlqTopicFor = (topic: string): string => `${topic}.dlq`;
